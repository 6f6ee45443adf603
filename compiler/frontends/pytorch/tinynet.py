"""A small CNN of your own, as a user writes it: the example of docs/frontend.md."""
import torch.nn as nn


class TinyNet(nn.Module):
    input_shape = (1, 3, 32, 32)

    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, 16, 3, stride=2, padding=1), nn.BatchNorm2d(16), nn.ReLU(),
            nn.Conv2d(16, 16, 3, padding=1, groups=16), nn.BatchNorm2d(16), nn.ReLU(),
            nn.Conv2d(16, 32, 1), nn.BatchNorm2d(32), nn.ReLU(),
            nn.AvgPool2d(16))
        self.classifier = nn.Sequential(nn.Flatten(), nn.Linear(32, 10))

    def forward(self, x):
        return self.classifier(self.features(x))
