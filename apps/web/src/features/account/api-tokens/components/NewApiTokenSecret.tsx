import { API_TOKEN_TEXTS, type TCreateApiTokenResponse } from "@linewatch/contracts";
import ContentCopyIcon from "@mui/icons-material/ContentCopy";
import { Alert, Box, Button, Stack, Typography } from "@mui/material";
import { useState } from "react";
import { useTexts } from "../../../../shared/i18n/language";

/** The token just made, shown this once with a copy button: the server keeps only its hash. */
export function NewApiTokenSecret({ created }: { created: TCreateApiTokenResponse }) {
  const T = useTexts(API_TOKEN_TEXTS);
  const [copy, setCopy] = useState<"idle" | "copied" | "failed">("idle");
  const handleCopy = async () => {
    try {
      await navigator.clipboard.writeText(created.secret);
      setCopy("copied");
    } catch {
      setCopy("failed");
    }
  };
  return (
    <Stack spacing={1} component="section" aria-labelledby="api-token-secret-heading">
      <Typography variant="subtitle1" component="h3" id="api-token-secret-heading">
        {T.createdHeading}: {created.token.name}
      </Typography>
      <Alert severity="warning">{T.shownOnce}</Alert>
      <Stack direction="row" spacing={1} sx={{ alignItems: "center" }}>
        <Box
          component="code"
          aria-label={T.tokenLabel}
          data-testid="api-token-secret"
          sx={{
            fontFamily: "monospace",
            fontSize: 13,
            bgcolor: "action.hover",
            borderRadius: 1,
            p: 1.5,
            flexGrow: 1,
            overflowWrap: "anywhere",
          }}
        >
          {created.secret}
        </Box>
        <Button size="small" variant="outlined" startIcon={<ContentCopyIcon />} onClick={handleCopy}>
          {T.copy}
        </Button>
      </Stack>
      {copy === "copied" && <Alert severity="success">{T.copied}</Alert>}
      {copy === "failed" && <Alert severity="info">{T.copyBlocked}</Alert>}
    </Stack>
  );
}
