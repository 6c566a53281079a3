import { expect, it } from "vitest";
import { mediaUrl } from "./media";

it("joins base, file and account_id", () => {
  expect(mediaUrl({ baseUrl: "/media/", accountId: "clinica-demo" }, "hero.mp4")).toBe(
    "/media/hero.mp4?account_id=clinica-demo",
  );
  expect(mediaUrl({ baseUrl: "https://cdn.example/a", accountId: "x y" }, "ñ.webp")).toBe(
    "https://cdn.example/a/%C3%B1.webp?account_id=x%20y",
  );
});
