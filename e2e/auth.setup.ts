// The first minutes of a new installation: nobody can get in until the one-time setup link makes
// the first owner; then sign-in works, a wrong password does not, and the setup link is used up.
// Leaves the owner signed in (OWNER_STATE) for every other test.
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { expect, test as setup } from "@playwright/test";
import { adminCliEnv, e2eBaseURL, OWNER, OWNER_STATE } from "./installation";

const run = promisify(execFile);

setup("first owner through the one-time setup link, then sign-in", async ({ page }) => {
  // Signed out, a private page sends you to sign-in, which explains how to set up.
  await page.goto("/p/examples");
  await expect(page).toHaveURL(/\/sign-in\?next=%2Fp%2Fexamples$/);
  await expect(page.getByRole("heading", { name: "Versus is not set up yet" })).toBeVisible();

  // The admin command prints a fresh link (npm start printed one too; this one replaces it).
  const { stdout } = await run(process.execPath, ["scripts/cli/bin.mjs", "admin", "setup-link", "--url", e2eBaseURL], { env: adminCliEnv });
  const setupUrl = stdout.trim();
  expect(setupUrl).toMatch(new RegExp(`^${e2eBaseURL}/setup/vsetup_[A-Za-z0-9_-]{43}$`));
  await page.goto("/setup/not-the-token");
  await expect(page.locator("main").getByRole("alert")).toContainText("not valid or has expired");

  await page.goto(setupUrl);
  const form = page.locator('form[aria-label="Create the owner account"][data-ready="true"]');
  await form.getByLabel("Password").fill("short");
  await form.getByRole("button", { name: "Create owner account" }).click();
  await expect(form.getByText("password must be at least 12 characters")).toBeVisible();
  await form.getByLabel("Your name").fill(OWNER.name);
  await form.getByLabel("Email").fill(OWNER.email);
  // Long enough but common: the meter says so while typing, and the server refuses it on the field.
  await form.getByLabel("Password").fill("password1234");
  await expect(form.locator(".password-strength")).toContainText("too easy to guess");
  await form.getByRole("button", { name: "Create owner account" }).click();
  await expect(form.getByText(/^password is too easy to guess/)).toBeVisible();
  await form.getByLabel("Password").fill(OWNER.password);
  await expect(form.locator(".password-strength")).toContainText("Strength: strong");
  // The password can be shown to check it, and hidden again.
  await form.getByRole("button", { name: "Show" }).click();
  await expect(form.getByLabel("Password")).toHaveAttribute("type", "text");
  await expect(form.getByLabel("Password")).toHaveValue(OWNER.password);
  await form.getByRole("button", { name: "Hide" }).click();
  await expect(form.getByLabel("Password")).toHaveAttribute("type", "password");
  await form.getByRole("button", { name: "Create owner account" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Projects" })).toBeVisible();
  // The owner owns what was there before: the example data.
  await expect(page.getByRole("link", { name: /Examples/ })).toBeVisible();
  await expect(page.locator(".user-menu")).toContainText(OWNER.name);

  // The setup link is used up.
  await page.goto(setupUrl);
  await expect(page.getByRole("status")).toContainText("already set up");

  // Sign out ends the session; a wrong password is refused; the right one signs in.
  await page.goto("/");
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/sign-in$/);
  await page.goto("/");
  await expect(page).toHaveURL(/\/sign-in$/);
  const signIn = page.locator('form[aria-label="Sign in"][data-ready="true"]');
  await signIn.getByLabel("Email").fill(OWNER.email);
  await signIn.getByLabel("Password").fill("not the password");
  await signIn.getByRole("button", { name: "Sign in" }).click();
  await expect(signIn.getByRole("alert")).toContainText("do not match an account");
  await signIn.getByLabel("Password").fill(OWNER.password);
  await signIn.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Projects" })).toBeVisible();

  await page.context().storageState({ path: OWNER_STATE });
});
