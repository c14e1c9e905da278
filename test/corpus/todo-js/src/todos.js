export const todos = [];

export function addTodo(text) {
  todos.push({ text, done: false });
  return todos.length;
}
