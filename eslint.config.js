import js from '@eslint/js';
import tseslint from 'typescript-eslint';

// The layers (engine → src → doors → entry): each folder may import only the layers below it. A door (tools/, http/)
// never imports the other door; entry/ is where they are composed.
const layer = (files, forbidden) => ({
  files,
  rules: {
    'no-restricted-imports': [
      'error',
      { patterns: forbidden.map(([folder, why]) => ({ group: [`**/${folder}/*`, `**/${folder}/**`], message: why })) },
    ],
  },
});
const ENGINE_IS_PURE = 'engine/ is pure: it imports nothing of the service, the doors or the entry points.';
const SRC_KNOWS_NO_DOOR = 'src/ holds the business rules once; it never imports a door (tools/, http/) or entry/.';
const DOORS_APART = 'tools/ and http/ are separate doors: they never import each other; entry/ composes them.';
const ENTRY_ON_TOP = 'Nothing imports entry/: it composes the doors.';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', '.cache/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': ['error', { allow: ['error', 'warn'] }],
    },
  },
  { files: ['bin/**', 'bench/**', 'src/cli*.ts', 'src/cli/**'], rules: { 'no-console': 'off' } },
  { files: ['bin/**'], languageOptions: { globals: { process: 'readonly' } } },
  layer(['engine/**/*.ts'], [['src', ENGINE_IS_PURE], ['tools', ENGINE_IS_PURE], ['http', ENGINE_IS_PURE], ['entry', ENGINE_IS_PURE]]),
  layer(['src/**/*.ts'], [['tools', SRC_KNOWS_NO_DOOR], ['http', SRC_KNOWS_NO_DOOR], ['entry', SRC_KNOWS_NO_DOOR]]),
  layer(['tools/**/*.ts'], [['http', DOORS_APART], ['entry', ENTRY_ON_TOP]]),
  layer(['http/**/*.ts'], [['tools', DOORS_APART], ['entry', ENTRY_ON_TOP]]),
);
