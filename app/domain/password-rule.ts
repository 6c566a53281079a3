/** DESIGN decision 4 / §6: 8–128 characters with at least one letter and one number. Pure, client-safe. */
export function passwordMeetsRule(password: string): boolean {
  return password.length >= 8 && password.length <= 128 && /\p{L}/u.test(password) && /\d/.test(password);
}
