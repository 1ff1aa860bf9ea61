import { defineConfig } from "vite";
import react from "@vitejs/plugin-react";

// The build goes to dist/app/, which the Go binary embeds (see embed.go). During development `npm run dev` serves the
// app and sends /api to a running `edgeflow serve`.
export default defineConfig({
  plugins: [react()],
  build: {
    outDir: "dist/app",
    emptyOutDir: true,
    assetsDir: "assets",
    sourcemap: false,
  },
  server: {
    // the New workflow dialog's templates are the repository's examples/ (src/app/templates.ts)
    fs: { allow: [".", "../examples"] },
    proxy: { "/api": "http://127.0.0.1:8080" },
  },
  test: {
    environment: "jsdom",
    include: ["src/**/*.test.{ts,tsx}"],
    setupFiles: ["src/testSetup.ts"],
    // above the 10 s that findBy* and waitFor wait (src/testSetup.ts)
    testTimeout: 20_000,
  },
});
