import {
  APPEARANCE_TEXTS,
  APPEARANCES,
  featureFlagAccess,
  LANGUAGE_TEXTS,
  LANGUAGES,
  SHELL_TEXTS,
} from "@linewatch/contracts";
import AccountCircle from "@mui/icons-material/AccountCircle";
import Check from "@mui/icons-material/Check";
import {
  Divider,
  IconButton,
  ListItemIcon,
  ListItemText,
  ListSubheader,
  Menu,
  MenuItem,
  TextField,
  Tooltip,
  Typography,
} from "@mui/material";
import { lazy, Suspense, useState } from "react";
import { useNavigate } from "react-router";
import { canReadAuditLog } from "../features/audit-log/audit-log.access";
import { useLogout, useSaveLanguage, useSwitchCustomer } from "../shared/data/session/mutations";
import { useCustomersForSwitch, useMe } from "../shared/data/session/queries";
import { useTexts } from "../shared/i18n/language";
import { useAppearance } from "../shared/ui/appearance";
import { useSnackbar } from "../shared/ui/SnackbarProvider";

// The dialogs load when first opened (issue #17).
const ChangePasswordDialog = lazy(() =>
  import("../features/account/password/ChangePasswordDialog").then((m) => ({
    default: m.ChangePasswordDialog,
  })),
);
const ApiTokensDialog = lazy(() =>
  import("../features/account/api-tokens/ApiTokensDialog").then((m) => ({ default: m.ApiTokensDialog })),
);

/**
 * The user menu: email, location, customer switch (provider staff), feature flags (provider staff
 * switch them, administrators see them read-only), the audit log (administrators), the
 * user's own password and API tokens (dialogs), the appearance (follow the system, light, dark),
 * the language (English, German), sign out.
 */
export function UserMenu() {
  const me = useMe().data;
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const navigate = useNavigate();
  const logout = useLogout();
  const switchCustomer = useSwitchCustomer();
  const customers = useCustomersForSwitch(!!me?.isProviderStaff && anchor != null);
  const snackbar = useSnackbar();
  const appearance = useAppearance();
  const T = useTexts(SHELL_TEXTS);
  const A = useTexts(APPEARANCE_TEXTS);
  const L = useTexts(LANGUAGE_TEXTS);
  const saveLanguage = useSaveLanguage();
  const [dialog, setDialog] = useState<"password" | "tokens" | null>(null);
  if (!me) return null;
  const close = () => setAnchor(null);
  return (
    <>
      <Tooltip title={me.email}>
        <IconButton color="inherit" aria-label={T.userMenu} onClick={(e) => setAnchor(e.currentTarget)}>
          <AccountCircle />
        </IconButton>
      </Tooltip>
      <Menu anchorEl={anchor} open={anchor != null} onClose={close} slotProps={{ list: { dense: true } }}>
        <MenuItem disabled sx={{ opacity: "1 !important" }}>
          <ListItemText primary={me.email} secondary={T.location(me.locationName ?? T.unassigned)} />
        </MenuItem>
        <MenuItem disabled sx={{ opacity: "1 !important" }}>
          <ListItemText primary={T.customer} secondary={me.customer.name} />
        </MenuItem>
        {me.isProviderStaff && [
          <Divider key="d" />,
          // A menu holds menu items only: the heading is for the eye (role none, hidden).
          <ListSubheader key="h" role="none" aria-hidden>
            {T.actForCustomer}
          </ListSubheader>,
          <MenuItem key="s" onKeyDown={(e) => e.stopPropagation()} disableRipple>
            <TextField
              select
              size="small"
              fullWidth
              label={T.customer}
              value={customers.data?.some((c) => c.id === me.customer.id) ? me.customer.id : ""}
              slotProps={{ select: { native: true }, inputLabel: { shrink: true } }}
              onChange={(e) =>
                switchCustomer.mutate(e.target.value, {
                  onSuccess: (m) => {
                    close();
                    snackbar(T.nowActingFor(m.customer.name));
                    navigate("/");
                  },
                  onError: (err) => snackbar(err.message, { severity: "error" }),
                })
              }
            >
              {customers.isLoading && <option value="">{T.loadingOption}</option>}
              {customers.data?.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.name}
                </option>
              ))}
            </TextField>
          </MenuItem>,
        ]}
        <Divider />
        {featureFlagAccess(me).canView && (
          <MenuItem
            onClick={() => {
              close();
              navigate("/feature-flags");
            }}
          >
            {T.featureFlags}
          </MenuItem>
        )}
        {canReadAuditLog(me) && (
          <MenuItem
            onClick={() => {
              close();
              navigate("/audit-log");
            }}
          >
            {T.auditLog}
          </MenuItem>
        )}
        <MenuItem
          onClick={() => {
            close();
            setDialog("password");
          }}
        >
          {T.changePassword}
        </MenuItem>
        <MenuItem
          onClick={() => {
            close();
            setDialog("tokens");
          }}
        >
          {T.apiTokens}
        </MenuItem>
        {appearance && [
          <Divider key="appearance-divider" />,
          // For the eye; each item names it through aria-describedby.
          <ListSubheader key="appearance-heading" id="appearance-heading" role="none" aria-hidden>
            {A.heading}
          </ListSubheader>,
          ...APPEARANCES.map((a) => (
            <MenuItem
              key={a}
              role="menuitemradio"
              aria-checked={appearance.appearance === a}
              aria-describedby="appearance-heading"
              onClick={() => appearance.setAppearance(a)}
            >
              <ListItemIcon>{appearance.appearance === a && <Check fontSize="small" />}</ListItemIcon>
              {A.options[a]}
            </MenuItem>
          )),
        ]}
        <Divider />
        {/* For the eye; each item names it through aria-describedby. */}
        <ListSubheader id="language-heading" role="none" aria-hidden>
          {L.heading}
        </ListSubheader>
        {/* Kept with the user on the server; no choice (null) follows the browser's language. */}
        {[null, ...LANGUAGES].map((l) => (
          <MenuItem
            key={l ?? "browser"}
            role="menuitemradio"
            aria-checked={me.language === l}
            aria-describedby="language-heading"
            // A language's own name, in its language, whatever the interface's.
            lang={l ?? undefined}
            disabled={saveLanguage.isPending}
            onClick={() => {
              close();
              if (me.language !== l) saveLanguage.mutate(l);
            }}
          >
            <ListItemIcon>{me.language === l && <Check fontSize="small" />}</ListItemIcon>
            {l ? L.options[l] : L.browser}
          </MenuItem>
        ))}
        <Divider />
        <MenuItem
          onClick={() =>
            logout.mutate(undefined, {
              onSettled: () => {
                close();
                navigate("/login");
              },
            })
          }
        >
          <Typography>{T.signOut}</Typography>
        </MenuItem>
      </Menu>
      {dialog && (
        <Suspense fallback={null}>
          {dialog === "password" && <ChangePasswordDialog onClose={() => setDialog(null)} />}
          {dialog === "tokens" && <ApiTokensDialog onClose={() => setDialog(null)} />}
        </Suspense>
      )}
    </>
  );
}
