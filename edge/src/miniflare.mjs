// The miniflare package, loaded through require. Its dist/src/index.js is CommonJS in a package.json without a
// "type": imported from ESM, Node's loader first compiles the whole 6 MB file to detect whether it holds module
// syntax (some 0.2 s of CPU at every start of the edge, decision 781), and then the CommonJS loader compiles it again.
// require compiles it once. The edge's modules take miniflare from here; the instance is the one `import` would
// give (require's cache).

import { createRequire } from "node:module";

const miniflare = createRequire(import.meta.url)("miniflare");

export const { Log, LogLevel, Miniflare, Response, convertV4MiniflareOptions } = miniflare;
