import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

export default tseslint.config(
  { ignores: ['**/node_modules/**', '.cache/**', 'proto/gen/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
      'no-console': 'error',
    },
  },
  {
    // ADR 9: the runtime forks a unit of work per request, RPC, message and job, and the service
    // opens its transaction; a store works in the entity manager it is given.
    files: ['**/*-store.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.property.name='fork']",
          message: 'A store never forks: it works in the unit of work the runtime opened (docs/adr/0009).',
        },
        {
          selector: "CallExpression[callee.property.name='transactional']",
          message: 'A store never opens a transaction: the service method does, with em.transactional (docs/adr/0009).',
        },
      ],
    },
  },
);
