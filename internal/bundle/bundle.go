// Package bundle turns the TypeScript files of a compiled workflow into one
// ES module with esbuild's Go API, in-process, from an in-memory file map. It
// is the only package that imports esbuild. npm dependencies are installed
// with npm into a content-addressed cache and bundled in.
package bundle

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"path"
	"path/filepath"
	"strings"

	"github.com/evanw/esbuild/pkg/api"
)

// Input is what to bundle.
type Input struct {
	// Files maps a slash-separated path ("index.ts", "nodes/x@1.0.0.ts") to
	// its source.
	Files map[string]string
	// Entry is the path in Files of the entry module.
	Entry string
	// Dependencies are npm packages (name → version range) the files import.
	// They are installed under CacheDir; npm is needed only when this is not
	// empty.
	Dependencies map[string]string
	// CacheDir holds installed dependencies, one directory per distinct
	// dependency set (see Install). Required when Dependencies is set.
	CacheDir string
	// CacheLimit is the size in bytes CacheDir's installed sets are kept
	// under, the least recently used removed first (TrimCache); 0 means
	// DefaultCacheLimit, a negative value no limit.
	CacheLimit int64
	// Minify shortens the output.
	Minify bool
	// SourceMap asks for an external source map in Output.Map.
	SourceMap bool
	// NoCache skips the in-memory cache of recent bundles (benchmarks).
	NoCache bool
	// Regions, when not nil (even empty), say that the entry module is
	// JavaScript (".js") written by a generator (codegen with
	// Options.JavaScript; pass codegen.Output.Regions) and list the spans
	// of it that hold code as its author wrote it, possibly TypeScript.
	// Only those spans are transpiled, in one esbuild transform; the rest
	// of the module is taken as it is. When the entry imports no other
	// file and no package, the result is the bundle without any esbuild
	// pass over the whole module.
	Regions []Region
}

// Output is the bundle.
type Output struct {
	// Code is one ES module; "cloudflare:" and "node:" imports stay imports.
	Code []byte
	// Map is the source map when Input.SourceMap was set.
	Map []byte
}

// Problem is one error esbuild reported, at File:Line:Column (Line 1-based,
// Column 0-based, both 0 when unknown).
type Problem struct {
	File    string `json:"file"`
	Line    int    `json:"line"`
	Column  int    `json:"column"`
	Message string `json:"message"`
}

// String writes the problem as "file:line:column: message".
func (p Problem) String() string {
	if p.File == "" {
		return p.Message
	}
	return fmt.Sprintf("%s:%d:%d: %s", p.File, p.Line, p.Column, p.Message)
}

// Error is a failed bundle: every problem, each with its file and line.
type Error struct {
	Problems []Problem
}

// Error lists every problem, separated by "; ".
func (e *Error) Error() string {
	parts := make([]string, len(e.Problems))
	for i, p := range e.Problems {
		parts[i] = p.String()
	}
	return "bundle: " + strings.Join(parts, "; ")
}

const memNamespace = "edgeflow"

// Bundle builds in into one ES module. Problems in the sources come back as
// an *Error; a failed dependency install as an *InstallError. Results are
// cached in memory by a hash of the input (the opening comment lines of each
// file, which esbuild drops, do not count), so recompiling an unchanged
// workflow under a new version number is cheap.
func Bundle(ctx context.Context, in Input) (*Output, error) {
	if _, ok := in.Files[in.Entry]; !ok {
		return nil, &Error{Problems: []Problem{{File: in.Entry, Message: "entry module not found in the files"}}}
	}
	if in.NoCache {
		return build(ctx, in)
	}
	key := cacheKey(in)
	if out, ok := results.get(key); ok {
		return out, nil
	}
	out, err := build(ctx, in)
	if err != nil {
		return nil, err
	}
	results.put(key, out)
	return out, nil
}

func build(ctx context.Context, in Input) (*Output, error) {
	resolveDir := ""
	if len(in.Dependencies) > 0 {
		dir, release, err := Install(ctx, in.CacheDir, in.CacheLimit, in.Dependencies)
		if err != nil {
			return nil, err
		}
		defer release()
		resolveDir = dir
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return buildFrom(in, resolveDir)
}

// buildFrom bundles in with the packages installed in resolveDir ("" for
// none); only files inside resolveDir are read (confine.go).
func buildFrom(in Input, resolveDir string) (*Output, error) {
	files := in.Files
	if in.Regions != nil {
		if !isJS(in.Entry) {
			return nil, &Error{Problems: []Problem{{File: in.Entry, Message: "regions need a JavaScript entry module"}}}
		}
		var code []byte
		if len(in.Regions) > 0 {
			var err error
			if code, err = transpileRegions(in.Entry, files[in.Entry], in.Regions); err != nil {
				return nil, err
			}
		} else {
			code = []byte(files[in.Entry])
		}
		if len(files) == 1 && resolveDir == "" && !in.SourceMap && !in.Minify {
			return plain(in.Entry, code)
		}
		files = make(map[string]string, len(in.Files))
		for k, v := range in.Files {
			files[k] = v
		}
		files[in.Entry] = string(code)
		in.Files = files
	}
	if len(files) == 1 && resolveDir == "" && !in.SourceMap {
		return transform(in)
	}
	conf, err := newConfiner(resolveDir, in.CacheDir)
	if err != nil {
		return nil, err
	}
	if conf.root != "" {
		resolveDir = conf.root
	}
	plugin := api.Plugin{
		Name: "edgeflow-files",
		Setup: func(b api.PluginBuild) {
			b.OnResolve(api.OnResolveOptions{Filter: ".*"}, func(args api.OnResolveArgs) (api.OnResolveResult, error) {
				p := args.Path
				switch {
				case args.PluginData == resolving:
					return api.OnResolveResult{}, nil // esbuild's resolver, asked by resolvePackage
				case args.Kind == api.ResolveEntryPoint:
					return api.OnResolveResult{Path: p, Namespace: memNamespace}, nil
				case strings.HasPrefix(p, "cloudflare:") || strings.HasPrefix(p, "node:"):
					return api.OnResolveResult{Path: p, External: true}, nil
				case args.Namespace == memNamespace && (strings.HasPrefix(p, "./") || strings.HasPrefix(p, "../")):
					target := path.Join(path.Dir(args.Importer), p)
					for _, c := range []string{target, target + ".ts", target + ".js", target + "/index.ts", target + "/index.js"} {
						if _, ok := files[c]; ok {
							return api.OnResolveResult{Path: c, Namespace: memNamespace}, nil
						}
					}
					return api.OnResolveResult{}, fmt.Errorf("cannot find module %q", p)
				case args.Namespace == memNamespace && strings.HasPrefix(p, "/"):
					return api.OnResolveResult{}, fmt.Errorf("absolute import %q is not allowed", p)
				}
				return conf.resolvePackage(b, args)
			})
			b.OnLoad(api.OnLoadOptions{Filter: ".*", Namespace: "file"}, conf.checkLoad)
			b.OnLoad(api.OnLoadOptions{Filter: ".*", Namespace: memNamespace}, func(args api.OnLoadArgs) (api.OnLoadResult, error) {
				src := files[args.Path]
				loader := api.LoaderTS
				switch path.Ext(args.Path) {
				case ".js", ".mjs":
					loader = api.LoaderJS
				case ".json":
					loader = api.LoaderJSON
				}
				return api.OnLoadResult{Contents: &src, Loader: loader, ResolveDir: resolveDir}, nil
			})
		},
	}
	opts := api.BuildOptions{
		EntryPoints:       []string{in.Entry},
		Bundle:            true,
		Write:             false,
		Format:            api.FormatESModule,
		Platform:          api.PlatformNeutral,
		Target:            api.ESNext,
		MainFields:        []string{"module", "main"},
		Conditions:        []string{"workerd", "worker", "browser", "import"},
		Outfile:           "index.js",
		LogLevel:          api.LogLevelSilent,
		Plugins:           []api.Plugin{plugin},
		MinifyWhitespace:  in.Minify,
		MinifyIdentifiers: in.Minify,
		MinifySyntax:      in.Minify,
		Charset:           api.CharsetUTF8,
	}
	if conf.root != "" {
		// esbuild names files relative to this in messages.
		opts.AbsWorkingDir = conf.root
	}
	if in.SourceMap {
		opts.Sourcemap = api.SourceMapExternal
	}
	res := api.Build(opts)
	if len(res.Errors) > 0 {
		e := toError(res.Errors)
		for i, p := range e.Problems {
			e.Problems[i].File = conf.scrub(p.File)
			if filepath.IsAbs(p.File) {
				e.Problems[i].File = conf.display(p.File)
			}
			e.Problems[i].Message = conf.scrub(p.Message)
		}
		return nil, e
	}
	out := &Output{}
	for _, f := range res.OutputFiles {
		switch {
		case strings.HasSuffix(f.Path, ".map"):
			out.Map = f.Contents
		default:
			out.Code = f.Contents
		}
	}
	if out.Code == nil {
		return nil, errors.New("bundle: esbuild produced no output")
	}
	return out, nil
}

func toError(msgs []api.Message) *Error {
	e := &Error{}
	for _, m := range msgs {
		p := Problem{Message: m.Text}
		if m.Location != nil {
			p.File = strings.TrimPrefix(m.Location.File, memNamespace+":")
			p.Line = m.Location.Line
			p.Column = m.Location.Column
		}
		e.Problems = append(e.Problems, p)
	}
	return e
}

// transform handles the common case of one module without dependencies:
// nothing to link, so esbuild's transform (TypeScript to JavaScript) gives
// the same module faster. Imports other than "cloudflare:" and "node:" are
// refused as Build would refuse them.
func transform(in Input) (*Output, error) {
	src := in.Files[in.Entry]
	loader := api.LoaderTS
	if ext := path.Ext(in.Entry); ext == ".js" || ext == ".mjs" {
		loader = api.LoaderJS
	}
	res := api.Transform(src, api.TransformOptions{
		Loader:            loader,
		Format:            api.FormatESModule,
		Target:            api.ESNext,
		Sourcefile:        in.Entry,
		LogLevel:          api.LogLevelSilent,
		MinifyWhitespace:  in.Minify,
		MinifyIdentifiers: in.Minify,
		MinifySyntax:      in.Minify,
		Charset:           api.CharsetUTF8,
	})
	if len(res.Errors) > 0 {
		return nil, toError(res.Errors)
	}
	if bad := foreignImports(res.Code); len(bad) > 0 {
		e := &Error{}
		for _, p := range bad {
			e.Problems = append(e.Problems, Problem{File: in.Entry, Message: fmt.Sprintf("cannot resolve import %q: not among the files or the dependencies", p)})
		}
		return nil, e
	}
	return &Output{Code: res.Code}, nil
}

// plain takes a generated JavaScript entry (Input.Regions set) that needs
// neither linking nor transpiling as the bundle, once checked for imports
// Build would refuse.
func plain(entry string, code []byte) (*Output, error) {
	if bad := foreignImports(code); len(bad) > 0 {
		e := &Error{}
		for _, p := range bad {
			e.Problems = append(e.Problems, Problem{File: entry, Message: fmt.Sprintf("cannot resolve import %q: not among the files or the dependencies", p)})
		}
		return nil, e
	}
	return &Output{Code: code}, nil
}

func isJS(file string) bool {
	ext := path.Ext(file)
	return ext == ".js" || ext == ".mjs"
}

// foreignImports lists the specifiers of static imports in esbuild's output
// that a bundle could not satisfy (anything but cloudflare: and node:).
func foreignImports(code []byte) []string {
	var bad []string
	for len(code) > 0 {
		var line []byte
		if i := bytes.IndexByte(code, '\n'); i >= 0 {
			line, code = code[:i], code[i+1:]
		} else {
			line, code = code, nil
		}
		if !bytes.HasPrefix(line, []byte("import ")) && !bytes.HasPrefix(line, []byte("export ")) {
			continue
		}
		s := string(line)
		i := strings.LastIndex(s, " from ")
		if i < 0 {
			if !strings.HasPrefix(s, "import \"") && !strings.HasPrefix(s, "import '") {
				continue
			}
			i = len("import")
		} else {
			i += len(" from")
		}
		spec := strings.Trim(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(s[i:]), ";")), "\"'")
		if spec == "" || strings.HasPrefix(spec, "cloudflare:") || strings.HasPrefix(spec, "node:") {
			continue
		}
		bad = append(bad, spec)
	}
	return bad
}
