// The directory of V8's compile cache for the edge's code (decision 782): NODE_COMPILE_CACHE when the operator sets
// it, else edgeflow's directory in the user's cache (XDG_CACHE_HOME, else ~/.cache). Never a shared temporary
// directory: another local user could create it first and hand the edge compiled code of their own. A directory that
// is not the edge user's own, or that others may write to, is not used (null: no cache).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

export function compileCacheDir(env = process.env) {
  if (env.NODE_DISABLE_COMPILE_CACHE) return null;
  if (env.NODE_COMPILE_CACHE) return env.NODE_COMPILE_CACHE;
  const base = env.XDG_CACHE_HOME || path.join(os.homedir(), ".cache");
  const dir = path.join(base, "edgeflow", "node-compile-cache");
  try {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    const st = fs.statSync(dir);
    const uid = process.getuid?.();
    if (uid !== undefined && st.uid !== uid) return null;
    if ((st.mode & 0o022) !== 0) return null;
    return dir;
  } catch {
    return null;
  }
}
