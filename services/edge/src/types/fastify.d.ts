import type { AccountDoc } from '@leadfinder/platform';

// The one place request decorations are typed (set by the auth guards, null until then).
declare module 'fastify' {
  interface FastifyRequest {
    caller: AccountDoc | null;
  }
}
