/**
 * Prefetch on intent: hovering, touching or focusing a link to one of the app's pages starts
 * loading that page's chunks, so they are there (or on their way) by the time of the click.
 * One listener for the whole document, so pages keep plain <Link>s.
 */
export function prefetchLinksOnIntent(prefetch: (pathname: string) => void) {
  const seen = new Set<string>();
  const handleIntent = (e: Event) => {
    const link = e.target instanceof Element ? e.target.closest("a[href]") : null;
    if (!(link instanceof HTMLAnchorElement) || link.origin !== window.location.origin) return;
    if (seen.has(link.pathname)) return;
    seen.add(link.pathname);
    prefetch(link.pathname);
  };
  for (const type of ["pointerover", "focusin", "touchstart"]) {
    document.addEventListener(type, handleIntent, { passive: true, capture: true });
  }
}
