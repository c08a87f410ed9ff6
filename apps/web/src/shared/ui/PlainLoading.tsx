import { AUTH_TEXTS } from "@linewatch/contracts";
import { useTexts } from "../i18n/language";
import "./plain.css";

/** The first page's loading spinner, before any MUI code is loaded (the router's HydrateFallback). */
export function PlainLoading() {
  const T = useTexts(AUTH_TEXTS);
  return (
    <div className="lw-plain lw-centre" role="progressbar" aria-label={T.loading}>
      <div className="lw-spinner" />
    </div>
  );
}
