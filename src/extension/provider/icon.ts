/**
 * EIP-6963 provider icon: assets/sigil-mark.svg (the Sigil diamond on indigo), base64.
 * A unit test checks that this constant matches the asset file.
 */
export const SIGIL_ICON =
  'data:image/svg+xml;base64,PHN2ZyB4bWxucz0iaHR0cDovL3d3dy53My5vcmcvMjAwMC9zdmciIHZpZXdCb3g9IjAgMCAzMiAzMiI+PHJlY3Qgd2lkdGg9IjMyIiBoZWlnaHQ9IjMyIiByeD0iNiIgZmlsbD0iIzMxMmU4MSIvPjxwYXRoIGQ9Ik0xNiA0LjUgMjcuNSAxNiAxNiAyNy41IDQuNSAxNloiIGZpbGw9IiNmNWM1NDIiIHN0cm9rZT0iIzFlMWI0YiIgc3Ryb2tlLXdpZHRoPSIxLjUiIHN0cm9rZS1saW5lam9pbj0icm91bmQiLz48L3N2Zz4='
