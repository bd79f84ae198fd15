/** A secret as it may be shown anywhere: its first 8 characters and last 4 at most. */
export function maskSecret(secret: string): string {
  if (secret.length >= 20) return `${secret.slice(0, 8)}…${secret.slice(-4)}`;
  if (secret.length >= 8) return `${secret.slice(0, 3)}…${secret.slice(-2)}`;
  return '…';
}

/** Card numbers and security codes in a JSON text, as traces may show them: last 4 digits at most. */
export function redactCardData(json: string): string {
  return json
    .replace(/"(number|card_number)"\s*:\s*"([^"]*)"/g, (_, key: string, value: string) => `"${key}":"…${value.replace(/\D/g, '').slice(-4)}"`)
    .replace(/"cvc"\s*:\s*"[^"]*"/g, '"cvc":"…"');
}
