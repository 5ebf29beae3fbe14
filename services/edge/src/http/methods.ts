import type { FastifyInstance } from 'fastify';

/**
 * `405 Method Not Allowed` with `Allow` for a method the server does not serve on a path it does serve
 * (RFC 9110 §15.5.6), in the `{"detail"}` shape of every other error. Without it Fastify answers such a
 * request as if the path did not exist (404), and generic clients and API testers read that as a broken
 * route. Paths are learnt from the routes as they are registered, so this must be installed first.
 */
export function installMethodNotAllowed(app: FastifyInstance): void {
  const routes: { pattern: RegExp; methods: Set<string> }[] = [];
  const byUrl = new Map<string, Set<string>>();

  app.addHook('onRoute', (route) => {
    // A wildcard route (a web page's catch-all) does not make every path an existing one.
    if (route.url.includes('*')) return;
    const url = route.url.length > 1 ? route.url.replace(/\/+$/, '') : route.url;
    let methods = byUrl.get(url);
    if (!methods) {
      methods = new Set();
      byUrl.set(url, methods);
      routes.push({ pattern: patternOf(url), methods });
    }
    for (const method of [route.method].flat()) methods.add(method.toUpperCase());
    if (methods.has('GET')) methods.add('HEAD');
  });

  app.addHook('onRequest', async (request, reply) => {
    if (!request.is404) return;
    const path = request.url.split('?', 1)[0]!.replace(/(.)\/+$/, '$1');
    const allowed = new Set<string>();
    for (const route of routes) if (route.pattern.test(path)) for (const m of route.methods) allowed.add(m);
    if (allowed.size === 0 || allowed.has(request.method)) return;
    const allow = [...allowed].sort().join(', ');
    return reply.code(405).header('allow', allow).send({ detail: 'Method Not Allowed' });
  });
}

/** `/v1/searches/:id/events` → `^/v1/searches/[^/]+/events$`. */
function patternOf(url: string): RegExp {
  const source = url
    .split('/')
    .map((segment) => {
      if (segment.startsWith(':')) return '[^/]+';
      return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    })
    .join('/');
  return new RegExp(`^${source}$`);
}
