import { register } from 'node:module';

register('./record-resolutions.mjs', import.meta.url);
