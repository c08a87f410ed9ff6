import { AUTH_MESSAGES, AUTH_TEXTS, type TLoginBody, type TMe } from "@linewatch/contracts";
import { type FormEvent, useEffect, useState } from "react";
import { Navigate, useLocation, useNavigate } from "react-router";
import { api, get } from "../../shared/api/client";
import { followUserLanguage, localizeMessage, useTexts } from "../../shared/i18n/language";
import { AuthAlert, AuthField, AuthForm, Spinner } from "./AuthForm";

// Plain fetch, no query cache: the signed-in frame starts its own cache when it opens.
export function LoginPage() {
  const navigate = useNavigate();
  const T = useTexts(AUTH_TEXTS);
  const from = (useLocation().state as { from?: string } | null)?.from ?? "/";
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [signedIn, setSignedIn] = useState(false);
  // A user who still has a session goes straight on (no session: 401, the form stays).
  useEffect(() => {
    let live = true;
    get<TMe>("/api/auth/me").then(
      () => live && setSignedIn(true),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, []);
  if (signedIn) return <Navigate to={from} replace />;
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!email || !password || pending) return;
    setPending(true);
    setError(null);
    try {
      const me = await api<TMe>("POST", "/api/auth/login", { email, password } satisfies TLoginBody);
      // The user's language before the first signed-in page (no redraw once it has shown).
      await followUserLanguage(me.language);
      navigate(from, { replace: true });
    } catch (err) {
      setError(localizeMessage(AUTH_MESSAGES, err instanceof Error ? err.message : String(err)));
      setPending(false);
    }
  };
  return (
    <AuthForm title={T.productName} onSubmit={submit}>
      <p className="lw-muted">{T.signInIntro}</p>
      {error && <AuthAlert severity="error">{error}</AuthAlert>}
      <AuthField
        label={T.email}
        type="email"
        autoComplete="username"
        value={email}
        onChange={(e) => setEmail(e.target.value)}
        required
        autoFocus
      />
      <AuthField
        label={T.password}
        type="password"
        autoComplete="current-password"
        value={password}
        onChange={(e) => setPassword(e.target.value)}
        required
      />
      <button
        type="submit"
        className="lw-button"
        disabled={pending || !email || !password}
        aria-busy={pending}
      >
        {pending && <Spinner />}
        {T.signIn}
      </button>
    </AuthForm>
  );
}
