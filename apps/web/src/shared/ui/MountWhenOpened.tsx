import { type ReactNode, Suspense, useState } from "react";

/**
 * Renders `children` from the first time `isOpen` is true, then keeps them mounted, so a lazy
 * dialog or drawer (React.lazy) loads its code when it is first opened, not with the page, and
 * still plays its closing transition. Nothing shows while its code loads (the first opening).
 */
export function MountWhenOpened({ isOpen, children }: { isOpen: boolean; children: ReactNode }) {
  const [hasOpened, setHasOpened] = useState(isOpen);
  // Adjusting state while rendering (React's documented pattern): no extra commit without it.
  if (isOpen && !hasOpened) setHasOpened(true);
  return hasOpened ? <Suspense fallback={null}>{children}</Suspense> : null;
}
