import { useRouteLoaderData } from "react-router";
import { defaultClinic } from "~/config/clinic";
import { translate, type MessageKey } from "~/i18n/messages";
import type { loader } from "~/root";

type RootData = Awaited<ReturnType<typeof loader>>["data"];

// Used when the root loader itself failed (error pages still need texts and facts).
const fallback: RootData = {
  locale: "es",
  clinic: defaultClinic,
  media: { baseUrl: "/media", accountId: "clinica-demo" },
  user: null,
  year: new Date().getFullYear(),
};

export function useAppData(): RootData {
  return useRouteLoaderData<typeof loader>("root") ?? fallback;
}

export function useT() {
  const { locale } = useAppData();
  return (key: MessageKey) => translate(locale, key);
}
