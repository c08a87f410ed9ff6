import { Box } from "@mui/material";
import { type ReactNode, useEffect, useRef, useState } from "react";

/** How far outside the viewport a placeholder starts mounting its content. */
const NEAR_MARGIN = "300px";

/**
 * Renders `children` once this place comes within NEAR_MARGIN of the viewport, then keeps them
 * mounted; before that an empty box of `height` holds the place. So a chart below the fold loads
 * its code and draws when the person scrolls towards it, not with the page (the line overview's
 * scores over time: the charts' code is the largest part of what the page would load first).
 * Without IntersectionObserver (tests' jsdom, old browsers) the content mounts at once.
 */
export function MountWhenNear({ height, children }: { height: number; children: ReactNode }) {
  const ref = useRef<HTMLDivElement | null>(null);
  const [isNear, setIsNear] = useState(() => typeof IntersectionObserver === "undefined");
  useEffect(() => {
    const el = ref.current;
    if (isNear || !el) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) setIsNear(true);
      },
      { rootMargin: NEAR_MARGIN },
    );
    observer.observe(el);
    return () => observer.disconnect();
  }, [isNear]);
  if (isNear) return <>{children}</>;
  return <Box ref={ref} sx={{ height }} />;
}
