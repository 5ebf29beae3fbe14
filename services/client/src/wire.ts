/**
 * The wire schemas this SDK shares with the server, imported by relative path so that the published
 * build (tsup.config.ts) bundles their code and types: the @leadfinder/wire workspace package is private
 * and exports TypeScript sources, so a published SDK cannot depend on it.
 */
export * from '../../wire/src/index.js';
