// One lint for the whole repository: type-aware TypeScript everywhere, React and accessibility
// rules for the client. The layering (client → shared ← server, areas without cycles) is checked by
// dependency-cruiser (.dependency-cruiser.cjs), which sees whole import graphs, not one file.
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const schemasAsTypes = {
  group: ['zod', 'zod/*', '**/shared/api/*', '!**/shared/api/route'],
  allowTypeImports: true,
  message: 'Import types only: the schemas load with src/client/api/answer-schemas.ts, not in the boot bundle.',
};

/** Navigation goes through lib/router (wouter, writing history entries as use-go-back reads them). */
const routerOnly = [
  { group: ['react-router', 'react-router-dom', 'react-router/*'], message: 'The router is src/client/lib/router.tsx (wouter).' },
  { group: ['wouter', 'wouter/*'], message: 'Import from src/client/lib/router.tsx: its navigation numbers the history entries.' },
];

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'test-results/', 'playwright-report/', '.e2e-data/', '.e2e-dist/', 'bench/.data/', 'data/'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
      globals: { ...globals.node },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-import-type-side-effects': 'error',
      // A promise nobody awaits must say so (`void`), except where React takes a handler.
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
      // Fastify plugins, hooks and handlers are async by contract, whether or not they await.
      '@typescript-eslint/require-await': 'off',
      eqeqeq: ['error', 'always', { null: 'ignore' }],
      'no-console': ['error', { allow: ['warn', 'error'] }],
    },
  },
  {
    files: ['src/client/**/*.{ts,tsx}'],
    ...reactHooks.configs.flat['recommended-latest'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    files: ['src/client/**/*.tsx'],
    ...jsxA11y.flatConfigs.strict,
  },
  {
    // zod and the API's schemas stay out of the boot bundle (~28 KB gzip): the client names routes
    // and their types; answers.ts and the route's group of schemas (answer-schemas.ts), loaded
    // beside the first request, parse its answer (zod-jitless.ts is the client's zod). And the
    // client navigates through lib/router only.
    files: ['src/client/**/*.{ts,tsx}'],
    ignores: ['src/client/api/answers.ts', 'src/client/api/answer-schemas.ts', 'src/client/api/zod-jitless.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [schemasAsTypes, ...routerOnly] }],
    },
  },
  {
    // The router itself is where wouter comes in.
    files: ['src/client/lib/router.tsx'],
    rules: { 'no-restricted-imports': ['error', { patterns: [schemasAsTypes] }] },
  },
  {
    // Tests read JSON bodies as they come (untyped on purpose: a test must not trust the types
    // of what it checks).
    files: ['tests/**'],
    rules: {
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
    },
  },
  {
    // Command-line tools, benchmarks and tests report on the console.
    files: ['src/server/tools/**', 'bench/**', 'tests/**', 'scripts/**', '*.ts', '*.js'],
    rules: { 'no-console': 'off' },
  },
  {
    files: ['**/*.{js,mjs,cjs}'],
    ...tseslint.configs.disableTypeChecked,
  },
  // Formatting is Prettier's (npm run format:check), so no rule here argues with it.
  prettier,
);
