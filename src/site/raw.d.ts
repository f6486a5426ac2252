// Files imported as text (Vite's `?raw`: the build inlines them): the check-in page's service worker.
declare module '*?raw' {
  const text: string;
  export default text;
}
