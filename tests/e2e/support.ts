import type { Page } from "@playwright/test";

/**
 * Resolves once React has hydrated the whole server-rendered document: every element React rendered carries
 * React's props. Not rendered by React: the streaming <script>s and the inside of `dangerouslySetInnerHTML`
 * (articles, legal texts). Interacting earlier clicks on dead HTML, which makes assertions on client behaviour
 * meaningless.
 */
export async function waitForHydration(page: Page) {
  await page.waitForFunction(() => {
    // This function runs in the page, so its helpers must live inside it.
    // oxlint-disable-next-line unicorn/consistent-function-scoping
    const propsOf = (element: Element) => {
      const key = Object.keys(element).find((name) => name.startsWith("__reactProps$"));
      return key
        ? ((element as unknown as Record<string, unknown>)[key] as Record<string, unknown>)
        : undefined;
    };
    const hydrated = (element: Element) => {
      if (element.tagName === "SCRIPT" || propsOf(element)) return true;
      for (
        let parent = element.parentElement;
        parent && parent !== document.body;
        parent = parent.parentElement
      ) {
        const props = propsOf(parent);
        if (props) return "dangerouslySetInnerHTML" in props;
      }
      return false;
    };
    const elements = [...document.body.querySelectorAll("*")];
    return elements.length > 0 && elements.every(hydrated);
  });
}

/** Opens a path and waits for hydration. */
export async function openPage(page: Page, path: string) {
  const response = await page.goto(path);
  await waitForHydration(page);
  return response;
}

/** The landing page, hydrated. */
export async function openLanding(page: Page, path = "/") {
  return openPage(page, path);
}
