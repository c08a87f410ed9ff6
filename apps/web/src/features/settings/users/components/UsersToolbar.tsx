import { USER_MESSAGES } from "@linewatch/contracts";
import PersonAddIcon from "@mui/icons-material/PersonAdd";
import { Button, Stack, Typography } from "@mui/material";
import type { Ref } from "react";

/** 'Add user' and 'Total users: N' (requirements.md settings §2.6). */
export function UsersToolbar(p: {
  addButtonRef: Ref<HTMLButtonElement>;
  total: number;
  isAddDisabled: boolean;
  onAdd: () => void;
}) {
  return (
    <Stack direction="row" spacing={2} sx={{ alignItems: "center", px: 1, py: 1 }}>
      <Button
        ref={p.addButtonRef}
        variant="contained"
        startIcon={<PersonAddIcon />}
        onClick={p.onAdd}
        disabled={p.isAddDisabled}
      >
        {USER_MESSAGES.addUser}
      </Button>
      <Typography role="status" color="text.secondary">
        {USER_MESSAGES.totalUsers(p.total)}
      </Typography>
    </Stack>
  );
}
