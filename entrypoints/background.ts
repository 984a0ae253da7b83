export default defineBackground(() => {
  // Wired in src/extension/background (see issue 7).
})
