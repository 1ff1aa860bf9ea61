// make lint's ESLint configuration for Studio (web/) and the local edge (edge/). It runs from the repository's
// root with --config tools/lint/eslint.config.mjs, so that the plugins resolve from this package.
import js from "@eslint/js";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

export default tseslint.config(
  {
    ignores: ["**/node_modules/**", "web/dist/**", "web/src/api/schema.gen.ts", "edge/node-runtime/**", "**/*.d.ts"],
  },
  {
    // Studio: TypeScript and React; the rules of hooks are errors.
    files: ["web/src/**/*.{ts,tsx}"],
    extends: [js.configs.recommended, ...tseslint.configs.recommended],
    plugins: { "react-hooks": reactHooks },
    languageOptions: { globals: globals.browser },
    rules: {
      "react-hooks/rules-of-hooks": "error",
      "react-hooks/exhaustive-deps": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
    },
  },
  {
    // Studio's browser tests and tooling: Node modules that drive chromium.
    files: ["web/browser/**/*.mjs", "web/*.{mjs,ts}"],
    extends: [js.configs.recommended],
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: { "no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }] },
  },
  {
    // The edge: Node modules (src/, test/, server.mjs) and the workers it runs inside workerd; the benchmarks.
    files: ["edge/**/*.{mjs,js}", "bench/**/*.mjs"],
    extends: [js.configs.recommended],
    languageOptions: { globals: { ...globals.node, ...globals.serviceworker } },
    rules: { "no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none" }] },
  },
);
