import { AUTH_MESSAGES, PASSWORD_MIN_LENGTH } from "@linewatch/contracts";
import { Alert, Box, Button, Card, CardContent, TextField, Typography } from "@mui/material";
import { useMutation } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { Link as RouterLink, useSearchParams } from "react-router";
import { api } from "../../shared/api/client";

/** Where a one-time link lands: choose a password, then sign in. */
export function SetPasswordPage() {
  const [params] = useSearchParams();
  const token = params.get("token") ?? "";
  const [password, setPassword] = useState("");
  const [repeat, setRepeat] = useState("");
  const set = useMutation({ mutationFn: () => api("POST", "/api/auth/set-password", { token, password }) });
  const tooShort = password.length > 0 && password.length < PASSWORD_MIN_LENGTH;
  const mismatch = repeat.length > 0 && repeat !== password;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    set.mutate();
  };
  return (
    <Box sx={{ minHeight: "100vh", display: "grid", placeItems: "center", bgcolor: "grey.100" }}>
      <Card sx={{ width: 400 }} component="form" onSubmit={submit} noValidate>
        <CardContent sx={{ display: "flex", flexDirection: "column", gap: 2, p: 4 }}>
          <Typography variant="h5" component="h1">
            Set your password
          </Typography>
          {set.isSuccess ? (
            <>
              <Alert severity="success">{AUTH_MESSAGES.passwordSet}</Alert>
              <Button component={RouterLink} to="/login" variant="contained">
                Go to sign in
              </Button>
            </>
          ) : (
            <>
              {!token && <Alert severity="error">{AUTH_MESSAGES.invalidPasswordLink}</Alert>}
              {set.error && <Alert severity="error">{set.error.message}</Alert>}
              <TextField
                label="New password"
                type="password"
                autoComplete="new-password"
                value={password}
                onChange={(e) => setPassword(e.target.value)}
                error={tooShort}
                helperText={`At least ${PASSWORD_MIN_LENGTH} characters`}
                autoFocus
              />
              <TextField
                label="Repeat password"
                type="password"
                autoComplete="new-password"
                value={repeat}
                onChange={(e) => setRepeat(e.target.value)}
                error={mismatch}
                helperText={mismatch ? "Passwords do not match" : " "}
              />
              <Button
                type="submit"
                variant="contained"
                disabled={
                  !token || set.isPending || password.length < PASSWORD_MIN_LENGTH || repeat !== password
                }
              >
                Set password
              </Button>
            </>
          )}
        </CardContent>
      </Card>
    </Box>
  );
}
