import js from '@eslint/js';
import tseslint from 'typescript-eslint';

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
);
