/* The one clock formatter of the tablet, the director's console, the projector and the phones:
 * seconds left as m:ss, counting whole seconds up (a clock that shows 0:00 has run out). */

export function clockText(seconds) {
  const s = Math.max(0, Math.ceil(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}
