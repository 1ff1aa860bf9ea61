package main

import (
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/http/pprof"
	"net/netip"
	"time"
)

// checkPprofAddr accepts only a loopback address with a port for
// --pprof-addr: the profiles show the process's code paths and memory and
// are not behind edgeflow's authentication.
func checkPprofAddr(addr string) error {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("want host:port on loopback (e.g. 127.0.0.1:6060): %v", err)
	}
	if port == "" {
		return fmt.Errorf("%q has no port", addr)
	}
	if host == "localhost" {
		return nil
	}
	ip, err := netip.ParseAddr(host)
	if err != nil || !ip.IsLoopback() {
		return fmt.Errorf("%q is not a loopback address (127.0.0.1, ::1 or localhost): the profiles are not behind authentication", host)
	}
	return nil
}

// startPprof serves Go's runtime profiles (/debug/pprof/) on addr, a
// loopback address, until the returned stop is called; url is their base.
func startPprof(addr string, logger *slog.Logger) (url string, stop func(), err error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return "", nil, fmt.Errorf("--pprof-addr: %w", err)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	hs := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = hs.Serve(ln) }()
	url = "http://" + ln.Addr().String() + "/debug/pprof/"
	logger.Info("profiles served", "url", url)
	return url, func() { _ = hs.Close() }, nil
}
