// Wrangler (and the Workers test pool) bundle *.txt files as text modules by default.
declare module "*.txt" {
  const text: string;
  export default text;
}
