import { data } from "react-router";

// Placeholder while this page is being written: answers 404 to everyone.
export function loader() {
  throw data(null, { status: 404 });
}

export default function Placeholder() {
  return null;
}
