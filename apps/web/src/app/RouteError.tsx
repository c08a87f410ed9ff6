import { ROUTE_ERROR_TEXTS } from "@linewatch/contracts";
import "../shared/ui/plain.css";
import { isRouteErrorResponse, useRouteError } from "react-router";
import { useTexts } from "../shared/i18n/language";

/**
 * A page's code that can no longer be fetched: a tab opened before a new version was installed
 * asks for a chunk whose hashed name the new build replaced. Chromium, Firefox and Safari word it
 * differently.
 */
const MISSING_CHUNK =
  /Failed to fetch dynamically imported module|error loading dynamically imported module|Importing a module script failed/i;

/**
 * The routes' error boundary. A missing chunk offers a reload (which fetches the new index.html
 * and with it the new chunk names); any other error shows what React Router's own boundary shows.
 * Plain HTML: it may show before any MUI code has loaded (and when that code is what failed).
 */
export function RouteError() {
  const error = useRouteError();
  const T = useTexts(ROUTE_ERROR_TEXTS);
  const message = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}`
    : error instanceof Error
      ? error.message
      : String(error);
  if (MISSING_CHUNK.test(message)) {
    return (
      <div className="lw-plain" style={{ padding: 32 }}>
        <div className="lw-alert lw-alert-info" role="alert">
          {T.updated}
          <button type="button" className="lw-button" onClick={() => window.location.reload()}>
            {T.reload}
          </button>
        </div>
      </div>
    );
  }
  return (
    <>
      <h2>{T.unexpectedError}</h2>
      <h3 style={{ fontStyle: "italic" }}>{message}</h3>
      {error instanceof Error && error.stack ? <pre>{error.stack}</pre> : null}
    </>
  );
}
