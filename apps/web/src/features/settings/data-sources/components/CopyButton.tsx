import CheckIcon from "@mui/icons-material/Check";
import ContentCopyIcon from "@mui/icons-material/ContentCopy";
import { Button } from "@mui/material";
import { useEffect, useState } from "react";

/** How long "Copied" shows before the button reads "Copy" again (2 s). */
const COPIED_MS = 2_000;

/** Copies through the Clipboard API, or the older selection command where that is unavailable. */
async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const area = document.createElement("textarea");
    area.value = text;
    area.setAttribute("readonly", "");
    area.style.position = "fixed";
    area.style.opacity = "0";
    document.body.appendChild(area);
    area.select();
    try {
      return document.execCommand("copy");
    } catch {
      return false;
    } finally {
      area.remove();
    }
  }
}

/** A Copy button that says whether it worked. */
export function CopyButton({ text, label = "Copy" }: { text: string; label?: string }) {
  const [state, setState] = useState<"idle" | "copied" | "failed">("idle");
  useEffect(() => {
    if (state === "idle") return;
    const t = setTimeout(() => setState("idle"), COPIED_MS);
    return () => clearTimeout(t);
  }, [state]);
  return (
    <Button
      size="small"
      variant="outlined"
      startIcon={state === "copied" ? <CheckIcon /> : <ContentCopyIcon />}
      onClick={async () => setState((await copyText(text)) ? "copied" : "failed")}
      aria-live="polite"
    >
      {state === "copied" ? "Copied" : state === "failed" ? "Copy failed: select and copy" : label}
    </Button>
  );
}
