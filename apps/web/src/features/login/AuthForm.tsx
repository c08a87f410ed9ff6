import "../../shared/ui/plain.css";
import { type FormEvent, type InputHTMLAttributes, type ReactNode, useId } from "react";

/**
 * The sign-in and set-password pages are plain HTML with a small stylesheet, not MUI: they are
 * the first thing a person loads, and MUI with its styling engine would double what they download
 * (issue "Speed a person feels": sign-in ≤ 120 kB).
 */
export function AuthForm({
  title,
  children,
  onSubmit,
}: {
  title: string;
  children: ReactNode;
  onSubmit?: (e: FormEvent) => void;
}) {
  return (
    <main className="lw-plain lw-auth-page">
      <form className="lw-auth-card" onSubmit={onSubmit} noValidate>
        <h1>{title}</h1>
        {children}
      </form>
    </main>
  );
}

/** A labelled input with an optional help or error text under it (read out with the input). */
export function AuthField({
  label,
  help,
  invalid = false,
  ...input
}: { label: string; help?: string; invalid?: boolean } & InputHTMLAttributes<HTMLInputElement>) {
  const id = useId();
  return (
    <div className="lw-field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        aria-invalid={invalid}
        aria-describedby={help !== undefined ? `${id}-help` : undefined}
        {...input}
      />
      {help !== undefined && (
        <span id={`${id}-help`} className="lw-help">
          {help}
        </span>
      )}
    </div>
  );
}

export function AuthAlert({ severity, children }: { severity: "error" | "success"; children: ReactNode }) {
  return (
    <div className={`lw-alert lw-alert-${severity}`} role={severity === "error" ? "alert" : "status"}>
      {children}
    </div>
  );
}

export function Spinner() {
  return <span className="lw-spinner lw-spinner-small" aria-hidden="true" />;
}
