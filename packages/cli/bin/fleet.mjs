#!/usr/bin/env node
// `fleet` (`npm run fleet -- …`, `npx fleet` in the repository): the command line runs from its TypeScript sources through tsx.
import { register } from 'tsx/esm/api';

register();
await import('../src/main.ts');
