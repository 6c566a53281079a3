import { afterAll, describe, expect, it } from "vitest";
import { closeDb } from "~/db/client.server";
import { SUGGESTED_PROMPTS, violatesSafety } from "~/domain/agent-safety";
import { agentTurn } from "~/features/agent/agent-service.server";

afterAll(closeDb);

const links = (content: string) => [...content.matchAll(/\]\(([^)]+)\)/g)].map((match) => match[1]);

describe("the offline virtual dentist", () => {
  it("answers the five suggested prompts grounded in the clinic's own pages, without diagnosing or promising", async () => {
    const [treatment, predict, xray, booking, prices] = await Promise.all(
      SUGGESTED_PROMPTS.map((prompt) => agentTurn({ text: prompt })),
    );
    for (const turn of [treatment, predict, xray, booking, prices]) {
      expect(violatesSafety(turn!.content)).toBe(false);
      expect(turn!.handoff).toBeUndefined();
      for (const href of links(turn!.content)) expect(href).toMatch(/^\/(?!\/)/);
    }
    expect(treatment!.content).toContain("depende de una evaluación");
    expect(treatment!.sources.length).toBeGreaterThan(0);

    expect(predict!.content).toContain("No es posible predecir ni garantizar");
    expect(predict!.content).toMatch(/hueso/);
    expect(links(predict!.content)).toContain("/paciente/citas");
    expect(predict!.sources.some((source) => /implant/i.test(source.title))).toBe(true);
    // What it quotes as "nuestra guía" is a guide or an article, never a catalogue entry linked to Mis Citas.
    expect(
      predict!.sources.map((source) => source.source).every((kind) => kind === "guide" || kind === "article"),
    ).toBe(true);

    expect(xray!.content).toContain("No puedo analizar radiografías");
    expect(links(xray!.content)).toContain("/blog/inteligencia-artificial-diagnostico-dental");

    expect(links(booking!.content)).toEqual(["/paciente/citas"]);

    expect(prices!.content).toMatch(/Implante dental: desde \$\d/);
    expect(links(prices!.content)).toContain("/paciente/citas");
  });

  it("sends an emergency to the clinic phone and 131 at once and hands it to a person", async () => {
    const turn = await agentTurn({ text: "Me golpeé y me sangra mucho la boca" });
    expect(turn.intent).toBe("emergency");
    expect(turn.content).toMatch(/\+56 2 \d{4} \d{4}/);
    expect(turn.content).toContain("131");
    expect(turn.handoff?.reason).toBe("Posible urgencia");
    expect(turn.handoff?.summary).toContain("sangra");
  });

  it("retrieves by stem and without accents", async () => {
    const turn = await agentTurn({ text: "info sobre carillas y blanqueamientos" });
    expect(turn.sources.map((source) => source.url)).toContain("/blog/carillas-o-blanqueamiento");
    const folded = await agentTurn({ text: "armonizacion facial con acido hialuronico" });
    expect(folded.sources[0]?.url).toBe("/blog/armonizacion-facial-toxina-botulinica-acido-hialuronico");
  });
});
