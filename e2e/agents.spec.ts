// The Agents page as a project owner: a past expiry date is refused beside its field, a chosen
// day means its end on the user's own clock (a browser in New York here), a new enrollment
// token's secret is shown once with the agent's configuration and never again, and revoking it
// shows in the list.
import { expect, test } from "@playwright/test";
import { createProjectViaUi, openForm, uniqueSuffix } from "./helpers";
import { OWNER } from "./installation";

test.use({ timezoneId: "America/New_York" });

test("create an enrollment token, see its secret once, revoke it", async ({ page, baseURL }) => {
  const projectSlug = await createProjectViaUi(page, `Agents ${uniqueSuffix()}`);
  await openForm(page, `/p/${projectSlug}/agents`);
  await expect(page.getByRole("heading", { level: 1, name: "Agents" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "How an agent joins this project" })).toBeVisible();
  await expect(page.getByText("No enrollment tokens yet.")).toBeVisible();

  const form = page.getByRole("form", { name: "New enrollment token" });
  await form.getByLabel("Name").fill("bench-01");
  await form.getByLabel("Expires").selectOption({ label: "At the end of a day…" });
  await form.getByLabel("Last day").fill("2020-01-01");
  await form.getByRole("button", { name: "Create token" }).click();
  await expect(form.getByText("that day is already over; pick today or a later day")).toBeVisible();
  await expect(page.getByText("No enrollment tokens yet.")).toBeVisible();

  // 15 March is summer time in New York (UTC−4): the day ends at 03:59 UTC on the 16th.
  const year = new Date().getUTCFullYear() + 1;
  await form.getByLabel("Last day").fill(`${year}-03-15`);
  await expect(form.getByText(`Until 15 Mar ${year}, 23:59 your time (${year}-03-16 03:59 UTC)`)).toBeVisible();
  await form.getByRole("button", { name: "Create token" }).click();
  const shown = page.getByRole("status", { name: "New enrollment token secret" });
  await expect(shown).toContainText("Copy the enrollment token “bench-01” now");
  const secret = (await page.getByTestId("enrollment-token-secret").textContent())?.trim() ?? "";
  expect(secret).toMatch(/^venr_[A-Za-z0-9_-]{43}$/);
  await expect(shown.locator("pre").nth(1)).toHaveText(`VERSUS_URL=${baseURL} \\\nVERSUS_ENROLLMENT_TOKEN=${secret} \\\nversus-agent`);

  const table = page.getByRole("table", { name: "Enrollment tokens" });
  const row = table.getByRole("row", { name: /bench-01/ });
  await expect(row).toContainText(`${secret.slice(0, 11)}…`);
  await expect(row).toContainText(`${year}-03-16 03:59 UTC`);
  await expect(row).toContainText(`by ${OWNER.name}`);
  await expect(row).toContainText("active");
  // The list never shows the secret, and after a reload neither does the page.
  await expect(table).not.toContainText(secret);
  await page.reload();
  await expect(table).toContainText("bench-01");
  await expect(page.getByText(secret)).toHaveCount(0);

  page.once("dialog", (dialog) => void dialog.accept());
  await row.getByRole("button", { name: "Revoke bench-01" }).click();
  await expect(row).toContainText("revoked");
  await expect(row.getByRole("button", { name: "Revoke bench-01" })).toHaveCount(0);
  await page.reload();
  await expect(table.getByRole("row", { name: /bench-01/ })).toContainText("revoked");
});
