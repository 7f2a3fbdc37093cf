"use client";
// Name, email and password of a new account: the first owner's setup and accepting an invitation.
import type { FieldErrors, FieldValues, Path, UseFormRegister } from "react-hook-form";
import { Field, invalidProps } from "~/components/forms/field";
import { MIN_PASSWORD_LENGTH, type TNewAccount } from "~/server/schemas/auth";
import { PasswordInput } from "~/components/forms/password-input";

/** Any form that keeps the new account under `account`. */
type WithAccount = FieldValues & { account: TNewAccount };

export function NewAccountFields<T extends WithAccount>({
  register,
  errors,
  lockedEmail,
}: {
  register: UseFormRegister<T>;
  errors: FieldErrors<T>;
  lockedEmail?: string;
}) {
  const e = (errors as FieldErrors<WithAccount>).account;
  const field = (name: keyof TNewAccount) => register(`account.${name}` as Path<T>);
  return (
    <>
      <Field id="account-name" label="Your name" error={e?.name?.message}>
        <input id="account-name" type="text" autoComplete="name" {...field("name")} {...invalidProps("account-name", e?.name?.message)} />
      </Field>
      <Field id="account-email" label="Email" hint={lockedEmail ? "The invitation is for this address" : undefined} error={e?.email?.message}>
        <input
          id="account-email"
          type="email"
          autoComplete="username"
          readOnly={Boolean(lockedEmail)}
          {...field("email")}
          {...invalidProps("account-email", e?.email?.message)}
        />
      </Field>
      <Field id="account-password" label="Password" hint={`At least ${MIN_PASSWORD_LENGTH} characters`} error={e?.password?.message}>
        <PasswordInput
          id="account-password"
          autoComplete="new-password"
          strength={{ related: lockedEmail ? [lockedEmail] : [] }}
          {...field("password")}
          {...invalidProps("account-password", e?.password?.message)}
        />
      </Field>
    </>
  );
}
