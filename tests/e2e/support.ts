import { expect, type Page } from "@playwright/test";

/**
 * Resolves once React has hydrated the server-rendered document. Interacting earlier clicks on dead HTML (the
 * handlers are not attached yet), which is what a fast user on a slow phone would also experience, but it makes
 * assertions on client behaviour meaningless.
 */
export async function waitForHydration(page: Page) {
  await page.waitForFunction(() => Object.keys(document.body).some((key) => key.startsWith("__reactFiber$")));
}

/** Opens a path and waits for hydration. */
export async function openPage(page: Page, path: string) {
  const response = await page.goto(path);
  await waitForHydration(page);
  return response;
}

/** The landing page, hydrated: the forms' submission id is set by an effect, so it is a reliable signal. */
export async function openLanding(page: Page, path = "/") {
  const response = await openPage(page, path);
  await expect(page.locator('#lead-capture input[name="submissionId"]')).not.toHaveValue("");
  return response;
}
