import { USER_MESSAGES, ZAddUserBody } from "@linewatch/contracts";

/**
 * The add-user row's checks, in the spec's order (requirements.md settings §5 "Add user", §8 "Users"): the email
 * (contract rules), then the customer id, then the customer and plant context.
 */
export function validateNewUser(p: {
  email: string;
  customerId: string | undefined;
  plantId: string | undefined;
}): string | null {
  const email = ZAddUserBody.shape.email.safeParse(p.email ?? "");
  if (!email.success) return email.error.issues[0]?.message ?? USER_MESSAGES.emailRequired;
  if (!p.customerId) return USER_MESSAGES.customerIdRequired;
  if (!p.plantId) return USER_MESSAGES.customerOrPlantUndefined;
  return null;
}
