package modelserver

import "net/http"

// Requests returns a copy of the request log.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.log...)
}

// logWriter calls record once, before the first byte of the answer.
type logWriter struct {
	http.ResponseWriter
	record  func()
	started bool
}

func (l *logWriter) start() {
	if !l.started {
		l.started = true
		l.record()
	}
}

func (l *logWriter) WriteHeader(status int) {
	l.start()
	l.ResponseWriter.WriteHeader(status)
}

func (l *logWriter) Write(b []byte) (int, error) {
	l.start()
	return l.ResponseWriter.Write(b)
}

// Flush passes flushes through for streamed answers.
func (l *logWriter) Flush() {
	if f, ok := l.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}
