"use client";
// better-auth's browser client: sign-in, sign-out and the session, against /api/auth on this origin.
import { createAuthClient } from "better-auth/react";

export const authClient = createAuthClient();
