import { MemoryRouter, useRouteLoaderData } from "react-router";
import { describe, expect, it } from "vitest";
import { Prepared } from "./prepared-markup";
import { createMarkupPreparer, sameJson } from "./prepared-markup.server";
import { renderStreamed as streamed } from "./render-streamed.testing";

const renders: string[] = [];

function Greeting({ name }: { name: string }) {
  renders.push(name);
  return <p>Hola {name}</p>;
}

function Counter({ n }: { n: number }) {
  renders.push(String(n));
  return <span>{n}</span>;
}

function Name({ name }: { name: string }) {
  return <b>{name}</b>;
}

function Impure() {
  const data = useRouteLoaderData("root") as { year: number };
  return <p>{data.year}</p>;
}

function Body({ words }: { words: string }) {
  return <p>{words}</p>;
}

describe("the server's markup preparer", () => {
  it("renders a part once per distinct props and then reuses its HTML", () => {
    renders.length = 0;
    const prepare = createMarkupPreparer();
    expect(prepare("greeting", Greeting, { name: "Ana" })).toBe("<p>Hola <!-- -->Ana</p>");
    expect(prepare("greeting", Greeting, { name: "Ana" })).toBe("<p>Hola <!-- -->Ana</p>");
    expect(renders.length).toBe(1);
    expect(prepare("greeting", Greeting, { name: "Luis" })).toBe("<p>Hola <!-- -->Luis</p>");
    expect(renders.length).toBe(2);
  });

  it("keeps a bounded number of entries, dropping the oldest", () => {
    renders.length = 0;
    const prepare = createMarkupPreparer(3);
    // More distinct props than the part's recent list (4) and the cache (3) hold.
    for (const n of [1, 2, 3, 4, 5, 6, 7, 8]) prepare("counter", Counter, { n });
    expect(prepare.size()).toBe(3);
    expect(renders).toEqual(["1", "2", "3", "4", "5", "6", "7", "8"]);
    prepare("counter", Counter, { n: 8 });
    prepare("counter", Counter, { n: 6 });
    expect(renders.length).toBe(8);
    prepare("counter", Counter, { n: 1 });
    expect(renders.length).toBe(9);
  });

  it("keeps the UTF-8 bytes of the HTML it answered, for as long as it keeps the HTML", () => {
    const prepare = createMarkupPreparer(1);
    const html = prepare("greeting", Greeting, { name: "Ñuñoa" });
    expect(Buffer.from(prepare.bytes(html)!).toString("utf8")).toBe("<p>Hola <!-- -->Ñuñoa</p>");
    // A string the preparer did not answer (React's own pieces) has none.
    expect(prepare.bytes("<p>Hola <!-- -->Ana</p>")).toBeUndefined();
    // Dropped with its entry.
    prepare("greeting", Greeting, { name: "Ana" });
    expect(prepare.bytes(html)).toBeUndefined();
    expect(prepare.bytes("<p>Hola <!-- -->Ana</p>")).toBeDefined();
  });

  it("serves equal props from the part's recent list, however they were built", () => {
    renders.length = 0;
    const prepare = createMarkupPreparer();
    const props = { links: [{ href: "#a", label: "A" }], media: { baseUrl: "/media", accountId: "x" } };
    function Links({ links }: typeof props) {
      renders.push("links");
      return <p>{links.map((link) => link.label).join(",")}</p>;
    }
    const first = prepare("links", Links, props);
    // The caller changing its object afterwards changes nothing kept.
    props.links[0]!.label = "B";
    expect(
      prepare("links", Links, {
        media: { accountId: "x", baseUrl: "/media" },
        links: [{ label: "A", href: "#a" }],
      }),
    ).toBe(first);
    expect(renders.length).toBe(1);
    expect(prepare("links", Links, props)).toBe("<p>B</p>");
    expect(renders.length).toBe(2);
  });

  it("escapes what the props carry, as React does", () => {
    expect(createMarkupPreparer()("name", Name, { name: "<script>alert(1)</script>" })).toBe(
      "<b>&lt;script&gt;alert(1)&lt;/script&gt;</b>",
    );
  });

  it("refuses a part that reads router data instead of its props", () => {
    expect(() => createMarkupPreparer()("impure", Impure, {})).toThrow(/data router/);
  });

  it("is not used in the browser: without a preparer the part renders as any other", async () => {
    const html = await streamed(
      <MemoryRouter>
        <Prepared
          as="section"
          attributes={{ id: "x" }}
          name="body"
          content={Body}
          props={{ words: "hola" }}
        />
      </MemoryRouter>,
    );
    expect(html).toBe('<section id="x"><p>hola</p></section>');
  });
});

describe("sameJson", () => {
  it("compares plain JSON values by content, objects whatever their key order", () => {
    expect(sameJson({ a: 1, b: [1, "x", null] }, { b: [1, "x", null], a: 1 })).toBe(true);
    expect(sameJson({ a: 1 }, { a: 1, b: 2 })).toBe(false);
    expect(sameJson({ a: 1, b: 2 }, { a: 1 })).toBe(false);
    expect(sameJson({ a: undefined }, {})).toBe(false);
    expect(sameJson([1, 2], [2, 1])).toBe(false);
    expect(sameJson([1], { 0: 1 })).toBe(false);
    expect(sameJson({ signedIn: true }, { signedIn: false })).toBe(false);
    expect(sameJson(2026, 2027)).toBe(false);
    expect(sameJson(null, {})).toBe(false);
  });
});
