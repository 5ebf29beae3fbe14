#!/usr/bin/env node
// Thin launcher: registers tsx so the TypeScript sources run as they are, then hands over to the CLI.
import { register } from 'tsx/esm/api';
register();
await import('../src/bin.ts');
