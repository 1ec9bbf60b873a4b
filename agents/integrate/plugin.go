package integrate

import (
	"embed"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
)

// pluginFS is a Claude Code plugin marketplace holding one plugin, rgit:
// .claude-plugin/marketplace.json, and under plugin/ the manifest
// (.claude-plugin/plugin.json) and the slash commands of seed 000
// (commands/deep-research.md, commands/cancel-research.md).
//
//go:embed all:claudeplugin
var pluginFS embed.FS

// PluginName is the plugin's name, and its marketplace's: Claude Code
// calls it "rgit@rgit" and also offers its commands as /rgit:<command>.
const PluginName = "rgit"

// claudePlugin installs the plugin the way Claude Code loads a local one
// without any interactive step: the marketplace is a directory rgit owns
// (loc.marketplace), named in the settings' extraKnownMarketplaces with a
// "directory" source, and enabledPlugins turns the plugin on. Claude Code
// then reads it in place, so rewriting the files updates it; seen with
// Claude Code 2.1.330 in print mode (user scope at once; project scope
// once the folder is trusted, as its trust dialog records). It offers the
// commands as /rgit:deep-research and /rgit:cancel-research only: a bare
// /deep-research is Claude Code's own built-in workflow. The settings keep
// everything else they hold; the plugin's files are rgit's, written whole.
func claudePlugin(loc location) ([]File, error) {
	settings, err := read(loc.settings)
	if err != nil {
		return nil, err
	}
	source := object{{"source", "directory"}, {"path", loc.marketplace}}
	out, err := setJSON(settings.Path, settings.Old, false, []jsonSet{
		{path: []string{"extraKnownMarketplaces", PluginName, "source"}, value: source},
		{path: []string{"enabledPlugins", PluginName + "@" + PluginName}, value: true},
	})
	if err != nil {
		return nil, err
	}
	settings.New = out
	files := []File{settings}
	err = fs.WalkDir(pluginFS, "claudeplugin", func(p string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		data, err := pluginFS.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel("claudeplugin", filepath.FromSlash(p))
		f, err := read(filepath.Join(loc.marketplace, rel))
		if err != nil {
			return err
		}
		f.New = data
		files = append(files, f)
		return nil
	})
	return files, err
}

// PluginFS is the plugin marketplace integrate installs, rooted at the
// marketplace directory.
func PluginFS() fs.FS {
	sub, err := fs.Sub(pluginFS, "claudeplugin")
	if err != nil {
		panic(err) // the directory is embedded: it exists
	}
	return sub
}

// PluginTools lists the MCP tools the slash commands are allowed to call,
// without the mcp__rgit__ prefix, read from their allowed-tools lines.
func PluginTools() []string {
	var out []string
	_ = fs.WalkDir(PluginFS(), "plugin/commands", func(p string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		data, err := fs.ReadFile(PluginFS(), p)
		for _, line := range strings.Split(string(data), "\n") {
			if rest, ok := strings.CutPrefix(line, "allowed-tools:"); ok {
				for _, tool := range strings.Split(rest, ",") {
					if name, ok := strings.CutPrefix(strings.TrimSpace(tool), "mcp__"+ServerName+"__"); ok && !slices.Contains(out, name) {
						out = append(out, name)
					}
				}
			}
		}
		return err
	})
	slices.Sort(out)
	return out
}
