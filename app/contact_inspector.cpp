#include "app/contact_inspector.h"

#include <cmath>
#include <limits>
#include <string>

namespace stiction::app {

int ContactInspector::Pick(const Camera& camera, const Rect& view, double x, double y, double max_pixels) const {
  const int w = static_cast<int>(std::lround(view.width)), h = static_cast<int>(std::lround(view.height));
  x -= view.x;
  y -= view.y;
  const std::vector<ContactSnapshot>& contacts = scene_.snapshot.contacts;
  int best = -1;
  double best_d2 = max_pixels * max_pixels;
  for (size_t i = 0; i < contacts.size(); ++i) {
    Vec3f pixel;
    if (!camera.Project(contacts[i].p_W.cast<float>(), w, h, &pixel)) continue;
    const double d2 = (pixel.x() - x) * (pixel.x() - x) + (pixel.y() - y) * (pixel.y() - y);
    if (d2 <= best_d2) {
      best_d2 = d2;
      best = static_cast<int>(i);
    }
  }
  return best;
}

void ContactInspector::Select(int index) {
  const std::vector<ContactSnapshot>& contacts = scene_.snapshot.contacts;
  if (index < 0 || index >= static_cast<int>(contacts.size())) {
    ui_.selected_contact = -1;
    return;
  }
  ui_.selected_contact = index;
  ui_.open_inspector = true;
  const ContactSnapshot& c = contacts[index];
  ui_.Info("contact " + std::to_string(index) + ": " + c.name_a + " - " + c.name_b + ", " + ContactStateName(c));
}

const ContactSnapshot* ContactInspector::selected() const {
  const int i = ui_.selected_contact;
  const std::vector<ContactSnapshot>& contacts = scene_.snapshot.contacts;
  return i >= 0 && i < static_cast<int>(contacts.size()) ? &contacts[i] : nullptr;
}

void ContactInspector::Follow(const Snapshot& previous) {
  const int i = ui_.selected_contact;
  if (i < 0) return;
  if (i >= static_cast<int>(previous.contacts.size())) {
    ui_.selected_contact = -1;
    return;
  }
  const ContactSnapshot& was = previous.contacts[i];
  int best = -1;
  double best_d = std::numeric_limits<double>::infinity();
  const std::vector<ContactSnapshot>& contacts = scene_.snapshot.contacts;
  for (size_t j = 0; j < contacts.size(); ++j) {
    const ContactSnapshot& c = contacts[j];
    if (c.body_a != was.body_a || c.body_b != was.body_b) continue;
    const double d = (c.p_W - was.p_W).norm();
    if (d < best_d) {
      best_d = d;
      best = static_cast<int>(j);
    }
  }
  ui_.selected_contact = best;
}

}  // namespace stiction::app
