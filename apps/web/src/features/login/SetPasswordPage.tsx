import { AUTH_MESSAGES, AUTH_TEXTS, PASSWORD_MIN_LENGTH } from "@linewatch/contracts";
import { type FormEvent, useState } from "react";
import { Link as RouterLink, useSearchParams } from "react-router";
import { api } from "../../shared/api/client";
import { localizeMessage, useTexts } from "../../shared/i18n/language";
import { AuthAlert, AuthField, AuthForm, Spinner } from "./AuthForm";

/** Where a one-time link lands: choose a password, then sign in. */
export function SetPasswordPage() {
  const [params] = useSearchParams();
  const T = useTexts(AUTH_TEXTS);
  const M = useTexts(AUTH_MESSAGES);
  const token = params.get("token") ?? "";
  const [password, setPassword] = useState("");
  const [repeat, setRepeat] = useState("");
  const [state, setState] = useState<"editing" | "pending" | "done">("editing");
  const [error, setError] = useState<string | null>(null);
  const tooShort = password.length > 0 && password.length < PASSWORD_MIN_LENGTH;
  const mismatch = repeat.length > 0 && repeat !== password;
  const canSubmit =
    !!token && state === "editing" && password.length >= PASSWORD_MIN_LENGTH && repeat === password;
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!canSubmit) return;
    setState("pending");
    setError(null);
    try {
      await api("POST", "/api/auth/set-password", { token, password });
      setState("done");
    } catch (err) {
      setError(localizeMessage(AUTH_MESSAGES, err instanceof Error ? err.message : String(err)));
      setState("editing");
    }
  };
  return (
    <AuthForm title={T.setPasswordTitle} onSubmit={submit}>
      {state === "done" ? (
        <>
          <AuthAlert severity="success">{M.passwordSet}</AuthAlert>
          <RouterLink to="/login" className="lw-button">
            {T.goToSignIn}
          </RouterLink>
        </>
      ) : (
        <>
          {!token && <AuthAlert severity="error">{M.invalidPasswordLink}</AuthAlert>}
          {error && <AuthAlert severity="error">{error}</AuthAlert>}
          <AuthField
            label={T.newPassword}
            type="password"
            autoComplete="new-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            invalid={tooShort}
            help={T.passwordHelp(PASSWORD_MIN_LENGTH)}
            autoFocus
          />
          <AuthField
            label={T.repeatPassword}
            type="password"
            autoComplete="new-password"
            value={repeat}
            onChange={(e) => setRepeat(e.target.value)}
            invalid={mismatch}
            help={mismatch ? T.passwordsDiffer : " "}
          />
          <button type="submit" className="lw-button" disabled={!canSubmit} aria-busy={state === "pending"}>
            {state === "pending" && <Spinner />}
            {T.setPassword}
          </button>
        </>
      )}
    </AuthForm>
  );
}
