// Members and invitations in a real browser: an owner invites a new address as a viewer, the
// invitee opens the link with no session, creates an account, lands signed in on the project and
// can only read — the pages offer no write actions, and the server refuses one sent anyway.
import { expect, test, type Browser, type Page } from "@playwright/test";
import superjson from "superjson";
import { createProjectViaUi, openForm, uniqueSuffix } from "./helpers";
import { e2eBaseURL } from "./installation";

const PASSWORD = "viewer password 1234";

/** Posts a tRPC mutation the way the browser's client does (superjson body), with this page's session. */
function trpcMutation(page: Page, procedure: string, input: unknown) {
  return page.request.post(`/api/trpc/${procedure}`, { data: superjson.serialize(input), headers: { "content-type": "application/json" } });
}

/** The owner invites `email` with `role` on the members page and gets the link shown once. */
async function inviteViaUi(page: Page, projectSlug: string, email: string, role: "owner" | "member" | "viewer") {
  await openForm(page, `/p/${projectSlug}/members`);
  const form = page.getByRole("form", { name: "Invite someone" });
  await form.getByLabel("Email").fill(email);
  await form.getByLabel("Role").selectOption(role);
  await form.getByRole("button", { name: "Invite" }).click();
  const link = page.getByTestId("invitation-link");
  await expect(link).toBeVisible();
  const url = (await link.textContent())?.trim() ?? "";
  expect(url).toMatch(new RegExp(`^${e2eBaseURL}/invite/vinv_[A-Za-z0-9_-]{43}$`));
  await expect(page.getByRole("table", { name: "Pending invitations" })).toContainText(email);
  return url;
}

/** A browser with no session at all, as the invitee has. */
async function freshBrowser(browser: Browser) {
  const context = await browser.newContext({ baseURL: e2eBaseURL, storageState: { cookies: [], origins: [] }, reducedMotion: "reduce" });
  return { context, page: await context.newPage() };
}

test("an invited viewer creates an account from the link, lands on the project and can only read", async ({ page, browser }) => {
  const suffix = uniqueSuffix();
  const projectName = `Members ${suffix}`;
  const projectSlug = await createProjectViaUi(page, projectName);
  await expect(page.getByText("you: owner")).toBeVisible();
  const created = await trpcMutation(page, "experiment.create", {
    projectSlug,
    experiment: {
      title: `Gzip uploads ${suffix}`,
      warmupRuns: 2,
      measuredRuns: 5,
      parameters: [],
      variants: [
        { name: "Plain", isBaseline: true },
        { name: "Gzip", isBaseline: false },
      ],
      metrics: [{ key: "upload_ms", unit: "ms", direction: "lower_is_better" }],
    },
  });
  expect(created.status(), await created.text()).toBe(200);
  const experimentSlug = (superjson.deserialize((await created.json()).result.data) as { slug: string }).slug;

  const email = `viewer-${suffix}@example.test`;
  const link = await inviteViaUi(page, projectSlug, email, "viewer");

  // The invitee: no session, a new account from the link.
  const invitee = await freshBrowser(browser);
  const viewer = invitee.page;
  await viewer.goto(link);
  await expect(viewer.getByRole("heading", { level: 1, name: `Join ${projectName} as viewer` })).toBeVisible();
  const accountForm = viewer.locator('form[aria-label="Create your account"][data-ready="true"]');
  await expect(accountForm.getByLabel("Email")).toHaveValue(email);
  await expect(accountForm.getByLabel("Email")).toHaveAttribute("readonly", "");
  await accountForm.getByLabel("Password").fill("short");
  await accountForm.getByRole("button", { name: /Create account and join/ }).click();
  await expect(accountForm.getByText("password must be at least 12 characters")).toBeVisible();
  await accountForm.getByLabel("Your name").fill("Vera Viewer");
  await accountForm.getByLabel("Password").fill(PASSWORD);
  await accountForm.getByRole("button", { name: /Create account and join/ }).click();

  // Signed in, on the project, read-only.
  await expect(viewer).toHaveURL(new RegExp(`/p/${projectSlug}$`));
  await expect(viewer.getByRole("heading", { level: 1, name: projectName })).toBeVisible();
  await expect(viewer.locator(".user-menu")).toContainText("Vera Viewer");
  await expect(viewer.getByText("you: viewer")).toBeVisible();
  await expect(viewer.getByRole("link", { name: "Members" })).toBeVisible();
  for (const name of ["New experiment", "API keys", "Settings"]) await expect(viewer.getByRole("link", { name })).toHaveCount(0);

  await viewer
    .getByRole("table", { name: "Experiments" })
    .getByRole("link", { name: `Gzip uploads ${suffix}` })
    .click();
  await expect(viewer.getByRole("heading", { level: 1, name: `Gzip uploads ${suffix}` })).toBeVisible();
  await expect(viewer.getByRole("table", { name: "Variants" })).toContainText("Gzip");
  await expect(viewer.getByRole("link", { name: "Edit" })).toHaveCount(0);
  await expect(viewer.getByRole("button", { name: "Delete" })).toHaveCount(0);
  await expect(viewer.getByRole("button", { name: "Share" })).toHaveCount(0);
  await expect(viewer.getByText("No runs yet.")).toBeVisible();
  await expect(viewer.getByRole("link", { name: "API keys" })).toHaveCount(0);

  // Typing the edit or new URL shows why there is no form.
  await viewer.goto(`/p/${projectSlug}/e/${experimentSlug}/edit`);
  await expect(viewer.getByRole("heading", { name: "You have read-only access" })).toBeVisible();
  await expect(viewer.locator("form")).toHaveCount(0);
  await viewer.goto(`/p/${projectSlug}/new`);
  await expect(viewer.getByRole("heading", { name: "You have read-only access" })).toBeVisible();
  await viewer.goto(`/p/${projectSlug}/settings`);
  await expect(viewer.getByRole("heading", { name: "You have read-only access" })).toBeVisible();

  // A write sent anyway, with the viewer's session, is refused by the server.
  const refused = await trpcMutation(viewer, "experiment.delete", { projectSlug, experimentSlug });
  expect(refused.status()).toBe(403);
  // The procedure's own refusal (superjson-encoded like every tRPC answer), not a transport one.
  const refusal = superjson.deserialize<{ message: string; data: { code: string } }>((await refused.json()).error);
  expect(refusal.data.code).toBe("FORBIDDEN");
  expect(refusal.message).toContain("viewer");
  await viewer.goto(`/p/${projectSlug}/e/${experimentSlug}`);
  await expect(viewer.getByRole("heading", { level: 1, name: `Gzip uploads ${suffix}` })).toBeVisible();

  // The members page lists them read-only; the link is used up.
  await viewer.goto(`/p/${projectSlug}/members`);
  const viewerMembers = viewer.getByRole("table", { name: "Members" });
  await expect(viewerMembers.getByRole("row", { name: /Vera Viewer/ })).toContainText("viewer");
  await expect(viewer.getByRole("form", { name: "Invite someone" })).toHaveCount(0);
  await expect(viewerMembers.getByRole("combobox")).toHaveCount(0);
  await expect(viewerMembers.getByRole("button")).toHaveCount(0);
  const again = await freshBrowser(browser);
  await again.page.goto(link);
  await expect(again.page.getByRole("status")).toContainText("already been accepted");
  await again.context.close();

  // The owner sees them as a member now, not as a pending invitation.
  await page.goto(`/p/${projectSlug}/members`);
  await expect(page.getByRole("table", { name: "Members" })).toContainText(email);
  await expect(page.getByText("No pending invitations.")).toBeVisible();
  await invitee.context.close();
});

test("an owner promotes, then removes, a member; the only owner cannot be demoted; invitations can be revoked", async ({ page, browser }) => {
  const suffix = uniqueSuffix();
  const projectSlug = await createProjectViaUi(page, `Roles ${suffix}`);
  const email = `member-${suffix}@example.test`;
  const link = await inviteViaUi(page, projectSlug, email, "viewer");
  const invitee = await freshBrowser(browser);
  await invitee.page.goto(link);
  const accountForm = invitee.page.locator('form[aria-label="Create your account"][data-ready="true"]');
  await accountForm.getByLabel("Your name").fill("Max Member");
  await accountForm.getByLabel("Password").fill(PASSWORD);
  await accountForm.getByRole("button", { name: /Create account and join/ }).click();
  await expect(invitee.page.getByText("you: viewer")).toBeVisible();

  // The only owner's row has no role control and no remove button.
  await page.goto(`/p/${projectSlug}/members`);
  const members = page.getByRole("table", { name: "Members" });
  const ownerRow = members.getByRole("row", { name: /you/ });
  await expect(ownerRow).toContainText("only owner");
  await expect(ownerRow.getByRole("combobox")).toHaveCount(0);

  await members.getByLabel(`Role of Max Member (${email})`).selectOption("member");
  await expect(members.getByLabel(`Role of Max Member (${email})`)).toHaveValue("member");
  await invitee.page.reload();
  await expect(invitee.page.getByText("you: member")).toBeVisible();
  await expect(invitee.page.getByRole("link", { name: "New experiment" })).toBeVisible();
  await expect(invitee.page.getByRole("link", { name: "Settings" })).toHaveCount(0);

  page.once("dialog", (dialog) => void dialog.accept());
  await members.getByRole("button", { name: `Remove Max Member (${email})` }).click();
  await expect(members).not.toContainText(email);
  await invitee.page.reload();
  await expect(invitee.page.getByRole("heading", { name: /not found/i })).toBeVisible();
  await invitee.context.close();

  // A pending invitation revoked: its link says so.
  const revokedLink = await inviteViaUi(page, projectSlug, `revoked-${suffix}@example.test`, "member");
  page.once("dialog", (dialog) => void dialog.accept());
  await page.getByRole("button", { name: `Revoke invitation for revoked-${suffix}@example.test` }).click();
  await expect(page.getByText("No pending invitations.")).toBeVisible();
  const visitor = await freshBrowser(browser);
  await visitor.page.goto(revokedLink);
  await expect(visitor.page.locator("main").getByRole("alert")).toContainText("withdrawn");
  await visitor.context.close();
});

test("invited to two projects before having an account: the second link signs in and joins", async ({ page, browser }) => {
  const suffix = uniqueSuffix();
  const first = await createProjectViaUi(page, `First ${suffix}`);
  const second = await createProjectViaUi(page, `Second ${suffix}`);
  const email = `twice-${suffix}@example.test`;
  const firstLink = await inviteViaUi(page, first, email, "viewer");
  const secondLink = await inviteViaUi(page, second, email, "member");

  const invitee = await freshBrowser(browser);
  await invitee.page.goto(firstLink);
  const accountForm = invitee.page.locator('form[aria-label="Create your account"][data-ready="true"]');
  await accountForm.getByLabel("Your name").fill("Tess Twice");
  await accountForm.getByLabel("Password").fill(PASSWORD);
  await accountForm.getByRole("button", { name: /Create account and join/ }).click();
  await expect(invitee.page).toHaveURL(new RegExp(`/p/${first}$`));
  await invitee.page.getByRole("button", { name: "Sign out" }).click();
  await expect(invitee.page).toHaveURL(/\/sign-in$/);

  await invitee.page.goto(secondLink);
  await expect(invitee.page.getByRole("heading", { level: 1, name: `Join Second ${suffix} as member` })).toBeVisible();
  const signIn = invitee.page.locator('form[aria-label="Sign in to join"][data-ready="true"]');
  await expect(signIn.getByLabel("Email")).toHaveValue(email);
  await signIn.getByLabel("Password").fill("not the password");
  await signIn.getByRole("button", { name: /Sign in and join/ }).click();
  await expect(signIn.getByRole("alert")).toContainText("does not match");
  await signIn.getByLabel("Password").fill(PASSWORD);
  await signIn.getByRole("button", { name: /Sign in and join/ }).click();
  await expect(invitee.page).toHaveURL(new RegExp(`/p/${second}$`));
  await expect(invitee.page.getByText("you: member")).toBeVisible();
  await invitee.page.goto("/");
  await expect(invitee.page.getByRole("link", { name: new RegExp(`First ${suffix}`) })).toContainText("viewer");
  await expect(invitee.page.getByRole("link", { name: new RegExp(`Second ${suffix}`) })).toContainText("member");
  await invitee.context.close();
});

test("an owner renames a project and deletes it after typing its slug", async ({ page }) => {
  const suffix = uniqueSuffix();
  const projectSlug = await createProjectViaUi(page, `Settings ${suffix}`);
  await page.getByRole("link", { name: "Settings" }).click();
  const details = page.locator('form[aria-label="Project details"][data-ready="true"]');
  await details.getByLabel("Name").fill(`Renamed ${suffix}`);
  await details.getByLabel("Description").fill("Payments team experiments");
  await details.getByRole("button", { name: "Save" }).click();
  await expect(details.getByRole("status")).toHaveText("Saved");
  await page.goto(`/p/${projectSlug}`);
  await expect(page.getByRole("heading", { level: 1, name: `Renamed ${suffix}` })).toBeVisible();
  await expect(page.getByText("Payments team experiments")).toBeVisible();

  await openForm(page, `/p/${projectSlug}/settings`);
  const remove = page.getByRole("form", { name: "Delete project" });
  await expect(remove.getByRole("button", { name: "Delete this project" })).toBeDisabled();
  await remove.getByLabel(`Type ${projectSlug} to confirm`).fill(projectSlug);
  await remove.getByRole("button", { name: "Delete this project" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Projects" })).toBeVisible();
  await expect(page.getByRole("link", { name: new RegExp(`Renamed ${suffix}`) })).toHaveCount(0);
  await page.goto(`/p/${projectSlug}`);
  await expect(page.getByRole("heading", { name: /not found/i })).toBeVisible();
});

test("a member of one project finds nothing of another: its pages and files answer 404 and name nothing", async ({ page, browser }) => {
  const suffix = uniqueSuffix();
  const openSlug = await createProjectViaUi(page, `Open ${suffix}`);
  const hiddenName = `Hidden ${suffix}`;
  const hiddenSlug = await createProjectViaUi(page, hiddenName);
  const created = await trpcMutation(page, "experiment.create", {
    projectSlug: hiddenSlug,
    experiment: {
      title: `Secret plan ${suffix}`,
      warmupRuns: 0,
      measuredRuns: 3,
      parameters: [],
      variants: [
        { name: "A", isBaseline: true },
        { name: "B", isBaseline: false },
      ],
      metrics: [{ key: "latency", unit: "ms", direction: "lower_is_better" }],
    },
  });
  expect(created.status(), await created.text()).toBe(200);
  const experimentSlug = (superjson.deserialize((await created.json()).result.data) as { slug: string }).slug;

  const link = await inviteViaUi(page, openSlug, `member-${suffix}@example.test`, "member");
  const { context, page: member } = await freshBrowser(browser);
  await member.goto(link);
  const accountForm = member.locator('form[aria-label="Create your account"][data-ready="true"]');
  await accountForm.getByLabel("Your name").fill("Max Member");
  await accountForm.getByLabel("Password").fill(PASSWORD);
  await accountForm.getByRole("button", { name: /Create account and join/ }).click();
  await expect(member).toHaveURL(new RegExp(`/p/${openSlug}$`));

  await member.goto("/");
  await expect(member.getByRole("link", { name: new RegExp(`Open ${suffix}`) })).toBeVisible();
  await expect(member.locator("main")).not.toContainText(hiddenName);

  for (const path of [
    `/p/${hiddenSlug}`,
    `/p/${hiddenSlug}/e/${experimentSlug}`,
    `/p/${hiddenSlug}/e/${experimentSlug}/edit`,
    `/p/${hiddenSlug}/members`,
    `/p/${hiddenSlug}/keys`,
    `/p/${hiddenSlug}/agents`,
    `/p/${hiddenSlug}/settings`,
    `/p/${hiddenSlug}/compare`,
  ]) {
    const response = await member.goto(path);
    expect(response?.status(), path).toBe(404);
    await expect(member.getByRole("heading", { level: 1, name: "Not found" }), path).toBeVisible();
    await expect(member.locator("body"), path).not.toContainText(hiddenName);
    await expect(member.locator("body"), path).not.toContainText(`Secret plan ${suffix}`);
  }
  const csv = await member.request.get(`/p/${hiddenSlug}/e/${experimentSlug}/export/runs.csv`);
  expect(csv.status()).toBe(404);
  // The same for a project that does not exist at all: nothing tells the two apart.
  const missing = await member.request.get(`/p/${hiddenSlug}-nope/e/${experimentSlug}/export/runs.csv`);
  expect(await csv.text()).toBe((await missing.text()).replace(`${hiddenSlug}-nope`, hiddenSlug));
  await context.close();
});
