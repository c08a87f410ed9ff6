import { useDrawingArea, useXScale } from "@mui/x-charts/hooks";

/** The alert's span shaded over the plot area, clamped to the charted times. */
export function AlertSpan(p: { from: Date; to: Date; color: string }) {
  const x = useXScale<"utc">();
  const area = useDrawingArea();
  const clamp = (v: number) => Math.min(area.left + area.width, Math.max(area.left, v));
  const x1 = clamp(x(p.to));
  // At least 4 px, so an alert opened at (or after) the newest evaluation still shows.
  const x0 = Math.max(area.left, Math.min(clamp(x(p.from)), x1 - 4));
  if (!(x1 > x0)) return null;
  return (
    <rect
      data-testid="alert-span"
      x={x0}
      y={area.top}
      width={x1 - x0}
      height={area.height}
      fill={p.color}
      opacity={0.1}
      pointerEvents="none"
    />
  );
}
