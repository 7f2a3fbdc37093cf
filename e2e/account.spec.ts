// One's own name and sign-in email on the account page: a blank name, an invalid or taken email
// and a wrong password are refused on their fields; a changed email is what one signs in with.
// A user of their own (invited into a project of this test), so the owner's sign-in is untouched.
import { expect, test, type Page } from "@playwright/test";
import superjson from "superjson";
import { createProjectViaUi, uniqueSuffix } from "./helpers";
import { e2eBaseURL, OWNER } from "./installation";

const PASSWORD = "account page password 4711";

async function trpcMutation(page: Page, procedure: string, input: unknown) {
  const response = await page.request.post(`/api/trpc/${procedure}`, { data: superjson.serialize(input), headers: { "content-type": "application/json" } });
  expect(response.status(), await response.text()).toBe(200);
  return superjson.deserialize((await response.json()).result.data);
}

test("a user renames themselves and changes their sign-in email, then signs in with the new one", async ({ page, browser }) => {
  const suffix = uniqueSuffix();
  const projectSlug = await createProjectViaUi(page, `Account ${suffix}`);
  const email = `mover-${suffix}@example.test`;
  const invited = (await trpcMutation(page, "member.invite", { projectSlug, email, role: "member" })) as { path: string };

  const context = await browser.newContext({ baseURL: e2eBaseURL, storageState: { cookies: [], origins: [] }, reducedMotion: "reduce" });
  const user = await context.newPage();
  await user.goto(invited.path);
  const join = user.locator('form[aria-label="Create your account"][data-ready="true"]');
  await join.getByLabel("Your name").fill("Mo Ver");
  await join.getByLabel("Password").fill(PASSWORD);
  await join.getByRole("button", { name: /Create account and join/ }).click();
  await expect(user).toHaveURL(new RegExp(`/p/${projectSlug}$`));

  await user.goto("/account");
  const nameForm = user.locator('form[aria-label="Your name"][data-ready="true"]');
  await expect(nameForm.getByLabel("Name")).toHaveValue("Mo Ver");
  await nameForm.getByLabel("Name").fill("   ");
  await nameForm.getByRole("button", { name: "Save name" }).click();
  await expect(nameForm.getByText("name is required", { exact: true })).toBeVisible();
  await nameForm.getByLabel("Name").fill("Maud Vermeer");
  await nameForm.getByRole("button", { name: "Save name" }).click();
  await expect(nameForm.getByRole("status")).toHaveText("Name saved");
  await expect(user.locator(".user-menu")).toContainText("Maud Vermeer");

  const emailForm = user.locator('form[aria-label="Change email"][data-ready="true"]');
  await expect(emailForm).toContainText(`You sign in with ${email}`);
  await emailForm.getByLabel("New email").fill("not an email");
  await emailForm.getByLabel("Current password").fill(PASSWORD);
  await emailForm.getByRole("button", { name: "Change email" }).click();
  await expect(emailForm.getByText("enter an email address like ana@example.com", { exact: true })).toBeVisible();
  // Taken: the owner signs in with it.
  await emailForm.getByLabel("New email").fill(OWNER.email);
  await emailForm.getByRole("button", { name: "Change email" }).click();
  await expect(emailForm.getByText("another account already signs in with this email", { exact: true })).toBeVisible();
  const newEmail = `Maud-${suffix}@Example.test`;
  await emailForm.getByLabel("New email").fill(newEmail);
  await emailForm.getByLabel("Current password").fill("not my password");
  await emailForm.getByRole("button", { name: "Change email" }).click();
  await expect(emailForm.getByText("this is not your current password", { exact: true })).toBeVisible();
  await emailForm.getByLabel("Current password").fill(PASSWORD);
  await emailForm.getByRole("button", { name: "Change email" }).click();
  await expect(emailForm.getByRole("status")).toHaveText(`Email changed. Sign in with ${newEmail.toLowerCase()} from now on.`);
  await expect(user.locator(".page-head p")).toContainText(`Maud Vermeer · ${newEmail.toLowerCase()}`);

  // Signed out, the old email no longer signs in; the new one does.
  await user.getByRole("button", { name: "Sign out" }).click();
  await expect(user).toHaveURL(/\/sign-in$/);
  const signIn = user.locator('form[aria-label="Sign in"][data-ready="true"]');
  await signIn.getByLabel("Email").fill(email);
  await signIn.getByLabel("Password").fill(PASSWORD);
  await signIn.getByRole("button", { name: "Sign in" }).click();
  await expect(signIn.getByRole("alert")).toContainText("do not match an account");
  await signIn.getByLabel("Email").fill(newEmail);
  await signIn.getByRole("button", { name: "Sign in" }).click();
  await expect(user.getByRole("heading", { level: 1, name: "Projects" })).toBeVisible();
  await expect(user.locator(".user-menu")).toContainText("Maud Vermeer");
  await context.close();
});
