import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  CircularProgress,
  TextField,
  Typography,
} from "@mui/material";
import { type FormEvent, useState } from "react";
import { Navigate, useLocation, useNavigate } from "react-router";
import { useLogin } from "../../shared/data/session/mutations";
import { useMe } from "../../shared/data/session/queries";

export function LoginPage() {
  const me = useMe();
  const login = useLogin();
  const navigate = useNavigate();
  const from = (useLocation().state as { from?: string } | null)?.from ?? "/";
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  if (me.data) return <Navigate to={from} replace />;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    login.mutate({ email, password }, { onSuccess: () => navigate(from, { replace: true }) });
  };
  return (
    <Box sx={{ minHeight: "100vh", display: "grid", placeItems: "center", bgcolor: "grey.100" }}>
      <Card sx={{ width: 380 }} component="form" onSubmit={submit} noValidate>
        <CardContent sx={{ display: "flex", flexDirection: "column", gap: 2, p: 4 }}>
          <Typography variant="h5" component="h1">
            Linewatch
          </Typography>
          <Typography variant="body2" color="text.secondary">
            Sign in to monitor your lines.
          </Typography>
          {login.error && <Alert severity="error">{login.error.message}</Alert>}
          <TextField
            label="Email"
            type="email"
            autoComplete="username"
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            required
            autoFocus
          />
          <TextField
            label="Password"
            type="password"
            autoComplete="current-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            required
          />
          <Button
            type="submit"
            variant="contained"
            disabled={login.isPending || !email || !password}
            startIcon={login.isPending ? <CircularProgress size={16} color="inherit" /> : undefined}
          >
            Sign in
          </Button>
        </CardContent>
      </Card>
    </Box>
  );
}
