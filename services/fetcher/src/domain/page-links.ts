import type { PageEntity, PageModel } from '@leadfinder/wire';

/** An href made absolute against the page it is on; null for non-web links (mailto:, javascript:, #…). */
export function absoluteLink(href: string | null, base: string): string | null {
  if (!href) return null;
  try {
    const url = new URL(href, base);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    url.hash = '';
    const self = new URL(base);
    self.hash = '';
    return url.href === self.href ? null : url.href;
  } catch {
    return null;
  }
}

/** The page model with every entity link absolute (a lead the coordinator can open). */
export function resolveModelLinks(model: PageModel, base: string): PageModel {
  const fix = (e: PageEntity): PageEntity => ({ ...e, link: absoluteLink(e.link, base) });
  return { ...model, subject: model.subject ? fix(model.subject) : null, items: model.items.map(fix) };
}
