import "./plain.css";

/** The first page's loading spinner, before any MUI code is loaded (the router's HydrateFallback). */
export function PlainLoading() {
  return (
    <div className="lw-plain lw-centre" role="progressbar" aria-label="Loading">
      <div className="lw-spinner" />
    </div>
  );
}
